import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Testing

/// The curl lines of docs/api.md (sign in by hand against `alfred-dev`) run as written, with only the
/// two ports swapped for this world's, so a newcomer who pastes them gets what the docs say.
@Suite(.timeLimit(.minutes(5))) struct ReadmeFlowTests {
    @Test func theReadmeCurlFlowSignsInSetsPreferencesRegistersADeviceAndAsksForDeleteAll() async throws {
        let script = try Self.readmeFlow()
        // The lines use curl, jq and openssl, as a newcomer's shell would have them.
        for tool in [SystemTool.curl, .jq, .openssl] { _ = try await Prerequisites.path(of: tool) }
        try await APIWorld(google: GoogleSide()).run { w in
            let apple = try await w.apple.baseURL()
            let runnable = "set -euo pipefail\n" + script
                .replacingOccurrences(of: "http://127.0.0.1:8086", with: apple)
                .replacingOccurrences(of: "http://127.0.0.1:8080", with: w.base)
                .replacingOccurrences(of: "com.googleusercontent.apps.alfred-dev-ios:/oauth2redirect", with: GoogleSide.iosRedirect)
            let (code, output) = try await run("/bin/bash", ["-c", runnable])
            #expect(code == 0, "\(output)")
            #expect(output.contains(#""time_zone" : "UTC""#), "the first GET shows the defaults: \(output)")
            #expect(output.contains(#""event_type" : "SIGN_IN""#), "\(output)")
            #expect(output.contains(#""status" : "QUEUED""#), "delete-all was accepted: \(output)")
            #expect(output.contains(#""status" : "ACTIVE""#), "Google was connected: \(output)")
            #expect(output.contains(#""event_type" : "CONNECT""#), "\(output)")

            // What the lines did, read from the database: one user, Berlin, one device, a delete-all asked.
            let rows = try await w.owner.query("""
                SELECT p.time_zone, p.meeting_reminder_minutes, (SELECT count(*) FROM devices d WHERE d.user_id = u.id),
                       (SELECT count(*) FROM privacy_requests r WHERE r.user_id = u.id)
                FROM users u JOIN preferences p ON p.user_id = u.id
                """, logger: TestDatabase.quietLogger).collect()
            #expect(rows.count == 1)
            let (zone, minutes, devices, deletions) = try #require(rows.first).decode((String, Int32, Int64, Int64).self)
            #expect(zone == "Europe/Berlin" && minutes == 10 && devices == 1 && deletions == 1)
        }
    }

    /// The shell block after "Signing in by hand" in docs/api.md.
    static func readmeFlow() throws -> String {
        let readme = Repository.url("docs/api.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let intro = text.range(of: "Signing in by hand"),
              let open = text.range(of: "```sh\n", range: intro.upperBound..<text.endIndex),
              let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex)
        else { throw WorldError("docs/api.md has no curl block after \"Signing in by hand\"") }
        return String(text[open.upperBound..<close.lowerBound])
    }
}

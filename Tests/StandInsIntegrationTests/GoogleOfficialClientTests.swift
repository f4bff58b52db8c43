import AlfredTestCluster
import Foundation
import StandIns
import Testing

/// The stand-in driven by Google's own Python client (google-api-python-client, pinned in
/// `Tests/conformance/bootstrap_venv.sh`): a client nobody here wrote must list, page, get, read
/// settings, list history and watch; and its traffic must pass `check_requests.py`, which checks
/// requests against the discovery documents that client ships. Needs python3 with venv and PyPI
/// the first time; without them this test fails and says so, it never skips.
@Suite(.timeLimit(.minutes(10))) struct GoogleOfficialClientTests {
    static let conformance = Repository.url("Tests/conformance")

    static let configuration = GoogleServer.dataConfiguration(
        events: [
            .init(id: "evt-board", summary: "Board sync", location: "Room 4.12", startInMinutes: 20, durationMinutes: 30,
                  selfResponse: "accepted", attendees: [.init(email: "grace@example.com", responseStatus: "accepted")],
                  hangoutLink: "https://meet.google.com/abc-defg-hij"),
            .init(id: "evt-standup", summary: "Stand-up", startInMinutes: 24 * 60, durationMinutes: 15,
                  recurrence: "daily", recurrenceCount: 3),
            .init(id: "evt-long-ago", summary: "Outside the window", startInMinutes: -5 * 24 * 60),
            .init(id: "evt-later", summary: "Outside the window", startInMinutes: 30 * 24 * 60),
        ],
        messages: [
            .init(id: "18c3a5f2b7e9d101", threadId: "18c3a5f2b7e9d101", from: "Grace Hopper <grace@navy.example>",
                  subject: "Production is down", labelIds: ["INBOX", "UNREAD", "IMPORTANT"],
                  snippet: "Can you look now?", arrivedMinutesAgo: 5),
            .init(id: "18c3a5f2b7e9d102", from: "News <news@shop.example>", subject: "Weekly deals",
                  labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"],
                  headers: ["List-Unsubscribe": "<mailto:unsubscribe@shop.example>", "Precedence": "bulk"],
                  snippet: "This week only", arrivedMinutesAgo: 60),
            .init(id: "18c3a5f2b7e9d103", subject: "Read already", labelIds: ["INBOX"], arrivedMinutesAgo: 90),
        ])

    @Test func googlesPythonClientSpeaksToTheStandIn() async throws {
        let python = try await Self.bootstrapPython()
        // The script picks its window from the wall clock, as a production client does; the stand-in
        // is pinned to the current minute so the expected instance ids are known here.
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
        try await GoogleServer.with(Self.configuration, clock: StandInClock(now: { start })) { google in
            let token = try google.token([GoogleServer.calendarReadonly, GoogleServer.gmailMetadata])
            let run = try await ChildProcess.run(python, [Self.script("google_client_check.py"), google.baseURL, token])
            try #require(run.status == 0, "google_client_check.py failed (\(run.status)):\n\(run.stderr)\n\(run.stdout)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                       "not JSON: \(run.stdout)")
            let calendar = try #require(summary["calendar"] as? [String: Any])
            #expect(calendar["pageSizes"] as? [Int] == [2, 2])
            // Zurich has no DST change in the next three days of most weeks; compare by UTC stamps anyway.
            let standups = (1...3).map { day in "evt-standup_" + Self.format(start.addingTimeInterval(Double(day) * 86_400),
                                                                             "yyyyMMdd'T'HHmmss'Z'", zone: "UTC") }
            #expect(calendar["eventIds"] as? [String] == ["evt-board"] + standups || Self.crossesDST(start))
            #expect(calendar["recurringEventIds"] as? [String] == ["evt-standup"])
            #expect(calendar["nextSyncToken"] as? Bool == true && calendar["incrementalItems"] as? Int == 0)
            #expect(calendar["timeZone"] as? String == "Europe/Zurich")
            #expect(calendar["settingTimeZone"] as? String == "Europe/Zurich")
            let event = try #require(calendar["event"] as? [String: Any])
            #expect(event["id"] as? String == "evt-board" && event["selfResponse"] as? String == "accepted")
            #expect(event["meetUri"] as? String == "https://meet.google.com/abc-defg-hij")

            let gmail = try #require(summary["gmail"] as? [String: Any])
            #expect(gmail["messageIds"] as? [String] == ["18c3a5f2b7e9d101", "18c3a5f2b7e9d102"])
            #expect(gmail["resultSizeEstimate"] as? Int == 2)
            #expect(gmail["inboxIds"] as? [String] == ["18c3a5f2b7e9d101", "18c3a5f2b7e9d102", "18c3a5f2b7e9d103"])
            let metadata = try #require(gmail["metadata"] as? [String: Any])
            #expect(metadata["headers"] as? [String: String] == [
                "From": "News <news@shop.example>", "Subject": "Weekly deals",
                "List-Unsubscribe": "<mailto:unsubscribe@shop.example>",
                "Date": Self.format(start.addingTimeInterval(-3600), "EEE, d MMM yyyy HH:mm:ss Z", zone: "Europe/Zurich"),
            ])
            // Seeds arrive oldest first: history after the older unread one holds the newer one.
            #expect(gmail["historyMessageIds"] as? [String] == ["18c3a5f2b7e9d101"])
            #expect((gmail["profile"] as? [String: Any])?["emailAddress"] as? String == GoogleServer.email)
            #expect((gmail["watch"] as? [String: Any])?["historyId"] as? String == gmail["historyId"] as? String)
            let notFound = try #require(gmail["notFound"] as? [String: Any])
            #expect(notFound["status"] as? Int == 404 && notFound["reason"] as? String == "notFound")
            #expect(notFound["message"] as? String == "Requested entity was not found.")

            // The client's own traffic passes the discovery-document check for both APIs ...
            let recorded = try await google.get("/_fake/requests")
            #expect(recorded.contains("/calendar/v3/calendars/primary/events") && recorded.contains("/gmail/v1/users/me/watch"))
            for api in ["calendar", "gmail"] {
                let check = try await Self.checkRequests(python, api: api, json: recorded)
                #expect(check.status == 0, "\(api): \(check.stdout)\(check.stderr)")
                #expect(check.stdout.contains("0 violations") && !check.stdout.contains(" 0 \(api)"), "\(check.stdout)")
            }
        }
    }

    @Test func requestCheckerRejectsWhatGoogleWouldReject() async throws {
        let python = try await Self.bootstrapPython()
        let calendar = try await Self.checkRequests(python, api: "calendar", json: """
            [{"method": "GET", "path": "/calendar/v3/calendars/primary/events",
              "query": [{"name": "maxResult", "value": "5"}, {"name": "orderBy", "value": "bogus"},
                        {"name": "timeMin", "value": "2026-11-20T09:00:00"}, {"name": "singleEvents", "value": "yes"},
                        {"name": "maxResults", "value": "1"}, {"name": "maxResults", "value": "2"}]},
             {"method": "DELETE", "path": "/calendar/v3/calendars/primary/things", "query": []},
             {"method": "POST", "path": "/token", "query": []}]
            """)
        #expect(calendar.status == 1)
        for needle in ["'maxResult'", "'bogus'", "timeMin='2026-11-20T09:00:00'", "singleEvents='yes'",
                       "maxResults is repeated", "serves DELETE /calendar/v3/calendars/primary/things", "6 violations",
                       "1 outside the API skipped"] {
            #expect(calendar.stdout.contains(needle), "missing \(needle) in:\n\(calendar.stdout)")
        }
        let gmail = try await Self.checkRequests(python, api: "gmail", json: """
            [{"method": "GET", "path": "/gmail/v1/users/me/messages/abc",
              "query": [{"name": "format", "value": "html"}, {"name": "metadataHeaders", "value": "From"},
                        {"name": "metadataHeaders", "value": "To"}]},
             {"method": "GET", "path": "/gmail/v1/users/me/history", "query": [{"name": "startHistoryId", "value": "-4"}]},
             {"method": "POST", "path": "/gmail/v1/users/me/watch", "query": [], "body": "{\\"topicName\\": \\"projects/p/topics/t\\", \\"labelFilter\\": \\"x\\"}"}]
            """)
        #expect(gmail.status == 1)
        for needle in ["format='html'", "startHistoryId=-4 is below the minimum 0", "'labelFilter' is not in schema", "3 violations"] {
            #expect(gmail.stdout.contains(needle), "missing \(needle) in:\n\(gmail.stdout)")
        }
        #expect(!gmail.stdout.contains("metadataHeaders is repeated"))
    }

    // MARK: Helpers

    static func script(_ name: String) -> String { conformance.appendingPathComponent(name).path }

    /// The pinned venv's python (see `ConformanceVenv`).
    static func bootstrapPython() async throws -> String { try await ConformanceVenv.python() }

    static func checkRequests(_ python: String, api: String, json: String) async throws -> ChildProcess.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("requests-\(UUID()).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ChildProcess.run(python, [script("check_requests.py"), api, file.path])
    }

    static func format(_ date: Date, _ pattern: String, zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// A daily series keeps its wall-clock time, so across a DST change its UTC stamps shift by an hour.
    static func crossesDST(_ start: Date) -> Bool {
        let zurich = TimeZone(identifier: "Europe/Zurich")!  // exists in every tz database
        return zurich.secondsFromGMT(for: start) != zurich.secondsFromGMT(for: start.addingTimeInterval(4 * 86_400))
    }
}

/// A child process run to completion without blocking a cooperative thread: Foundation's
/// `terminationHandler` resumes a continuation. Output goes to temporary files, so a chatty child
/// can never fill a pipe and stall.
enum ChildProcess {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: WorldError("cannot start \(executable): \(error)"))
            }
        }
        return Result(status: status,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}

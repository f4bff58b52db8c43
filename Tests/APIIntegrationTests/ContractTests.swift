import AlfredCore
import AlfredTestCluster
@testable import API
import Foundation
import Testing

/// An independent client tests the contract: schemathesis (from PyPI) generates requests from
/// `/openapi.json` (valid ones and deliberately invalid ones) and runs every one of its checks on the
/// answers, against the live server with a real session.
@Suite(.timeLimit(.minutes(10))) struct ContractTests {
    @Test func schemathesisFindsNoFailureWithEveryCheckOn() async throws {
        let schemathesis = try await Self.schemathesis()
        try await APIWorld(google: GoogleSide()).run { w in
            let session = try await w.signIn()
            let (code, output) = try await run(schemathesis, [
                "--config-file", Repository.url("Tests/conformance/schemathesis.toml").path,
                "run", "\(w.base)/openapi.json", "--url", w.base,
                // No example database: the seed alone decides what is generated, run after run.
                "--generation-database", "none",
                "--checks", "all",
                "--header", "Authorization: Bearer \(session.access)",
                // Logout would end the session the run uses; SessionTests covers it.
                "--exclude-operation-id", "logout",
                "--phases", "examples,coverage,fuzzing",
                "--max-examples", "25", "--seed", "20261125", "--workers", "1",
            ])
            #expect(code == 0, "\(Self.report(output))")
        }
    }

    /// Schemathesis's failures and summary, each line cut short (a fuzzed body can be megabytes).
    static func report(_ output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map { $0.prefix(300) }
        let start = lines.firstIndex { $0.contains("FAILURES") || $0.contains("ERRORS") } ?? max(0, lines.count - 80)
        return lines[start...].prefix(150).joined(separator: "\n")
    }

    /// The venv's `schemathesis` (Tests/conformance/bootstrap_venv.sh creates it once).
    static func schemathesis() async throws -> String { try await ConformanceVenv.executable("schemathesis") }
}

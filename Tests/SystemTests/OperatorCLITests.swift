import AlfredCore
import AlfredTestCluster
import Foundation
import Store
import Testing

/// `alfred migrate` and `alfred jobs …` as an operator runs them.
@Suite(.timeLimit(.minutes(10))) struct OperatorCLITests {
    func alfred(_ arguments: [String], _ url: DatabaseURL, migrations: URL? = nil) async throws -> (code: Int32, output: String) {
        var environment = ["ALFRED_DATABASE_URL": url.secretString.unsafeValue]
        environment["ALFRED_MIGRATIONS"] = (migrations ?? TestDatabase.migrationsDirectory).path
        return try await run(AlfredBinary.path, arguments, environment: environment)
    }

    func emptyDatabase() async throws -> DatabaseURL {
        try await TestDatabase.cluster().createDatabase("cli_" + UUID().uuidString.prefix(8).lowercased(),
                                                        logger: TestDatabase.quietLogger)
    }

    @Test func migrateTwiceAndTwoAtOnceAreSafe() async throws {
        let url = try await emptyDatabase()
        let (a, b) = (try ChildProcess(AlfredBinary.path, ["migrate"], environment: [
            "ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_MIGRATIONS": TestDatabase.migrationsDirectory.path]),
                      try ChildProcess(AlfredBinary.path, ["migrate"], environment: [
            "ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_MIGRATIONS": TestDatabase.migrationsDirectory.path]))
        let (codeA, codeB) = (await a.exitCode(), await b.exitCode())
        #expect(codeA == 0 && codeB == 0, "\(a.output)\n\(b.output)")
        let applied = [a.output, b.output].filter { $0.contains("applied 0001_initial") }
        #expect(applied.count == 1, "exactly one of the two applied it:\n\(a.output)\n\(b.output)")
        let again = try await alfred(["migrate"], url)
        #expect(again.code == 0)
        #expect(again.output.contains("database is up to date"))
    }

    @Test func migrateRefusesAnEditedAppliedMigration() async throws {
        let url = try await emptyDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mig-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: TestDatabase.migrationsDirectory, to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await alfred(["migrate"], url, migrations: directory).code == 0)
        let file = directory.appendingPathComponent("0001_initial.sql")
        try (try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "'ACTIVE'", with: "'active'"))
            .write(to: file, atomically: true, encoding: .utf8)
        let refused = try await alfred(["migrate"], url, migrations: directory)
        #expect(refused.code != 0)
        #expect(refused.output.contains("0001_initial was edited after it was applied"), "\(refused.output)")
    }

    @Test func enqueueStatsListCancelAndRetry() async throws {
        let url = try await TestDatabase.fresh()
        let enqueued = try await alfred(["jobs", "enqueue", "--kind", "noop", "--count", "3", "--due-in", "3600"], url)
        #expect(enqueued.code == 0 && enqueued.output.contains("enqueued 3 noop jobs"), "\(enqueued.output)")

        let stats = try await alfred(["jobs", "stats", "--json"], url)
        #expect(stats.code == 0)
        let decoded = try JSONDecoder().decode(QueueStats.self, from: Data(stats.output.utf8))
        #expect(decoded.rows == [.init(queue: "default", state: .queued, count: 3)])

        let listed = try await alfred(["jobs", "list", "--state", "queued", "--json"], url)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let jobs = try decoder.decode([JobSummary].self, from: Data(listed.output.utf8))
        #expect(jobs.count == 3)
        let id = jobs[0].id

        #expect(try await alfred(["jobs", "cancel", id.description], url).output.contains("cancelled"))
        let again = try await alfred(["jobs", "cancel", id.description], url)
        #expect(again.code != 0 && again.output.contains("already finished or unknown"))
        #expect(try await alfred(["jobs", "retry", id.description], url).output.contains("queued to run now"))
        #expect(try await alfred(["jobs", "list", "--state", "cancelled"], url).output.contains(id.description) == false)

        let unique = try await alfred(["jobs", "enqueue", "--unique-key", "once"], url)
        #expect(unique.output.contains("enqueued"))
        #expect(try await alfred(["jobs", "enqueue", "--unique-key", "once"], url).output.contains("unchanged"))
    }

    @Test(arguments: [
        (["jobs", "cancel", "not-a-uuid"], "is not a job id"),
        (["jobs", "list", "--state", "sleeping"], "unknown state 'sleeping'"),
        (["jobs", "enqueue", "--kind", "rocket.launch"], "unknown kind 'rocket.launch'"),
        (["jobs", "enqueue", "--payload", "[1,2]"], "--payload must be a JSON object"),
    ])
    func badInputGetsAClearError(arguments: [String], message: String) async throws {
        let url = try await TestDatabase.fresh()
        let result = try await alfred(arguments, url)
        #expect(result.code != 0)
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test func missingDatabaseURLIsExplained() async throws {
        let result = try await run(AlfredBinary.path, ["jobs", "stats"], environment: ["ALFRED_DATABASE_URL": ""])
        #expect(result.code != 0)
        #expect(result.output.contains("database URL") || result.output.contains("no database"), "\(result.output)")
    }
}

/// `alfred attestation verify` on the real AWS documents: the operator's view of a key-service decision.
@Suite(.timeLimit(.minutes(10))) struct AttestationCLITests {
    static let nitro = Repository.fixture("nitro")

    func verify(_ file: String, _ extra: [String]) async throws -> (code: Int32, json: [String: Any]) {
        let result = try await run(AlfredBinary.path, ["attestation", "verify", Self.nitro.appendingPathComponent(file).path,
                                                             "--root", Self.nitro.appendingPathComponent("aws-nitro-root-g1.pem").path] + extra)
        let line = result.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        return (result.code, (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:])
    }

    @Test func permitsARealDocumentAtItsTimestampAndDeniesItNow() async throws {
        let permitted = try await verify("eternis-prod-2024-07-31.cbor", ["--at", "2024-07-31T20:18:27.047Z"])
        #expect(permitted.code == 0)
        #expect(permitted.json["decision"] as? String == "permit")
        #expect(permitted.json["runtime"] as? String == "aws-nitro")
        let now = try await verify("eternis-prod-2024-07-31.cbor", [])
        #expect(now.code != 0)
        #expect(now.json["reason"] as? String == "certificate_not_valid_at_time")
    }

    @Test(arguments: [
        ("eternis-prod-2024-07-31.neg-payload-byte-flipped.cbor", "invalid_signature"),
        ("eternis-prod-2024-07-31.neg-signature-byte-flipped.cbor", "invalid_signature"),
        ("eternis-prod-2024-07-31.neg-cabundle-root-replaced.cbor", "untrusted_root"),
        ("eternis-prod-2024-07-31.neg-forged-chain-resigned.cbor", "untrusted_root"),
    ])
    func deniesEachNegativeVariantWithItsReason(file: String, reason: String) async throws {
        let denied = try await verify(file, ["--at", "2024-07-31T20:18:27.047Z"])
        #expect(denied.code != 0)
        #expect(denied.json["decision"] as? String == "deny")
        #expect(denied.json["reason"] as? String == reason)
    }

    @Test func appliesAPolicyFile() async throws {
        let policy = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        try #"{"runtime": "aws-nitro", "measurements": [{"PCR0": "00"}]}"#.write(to: policy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: policy) }
        let denied = try await verify("eternis-prod-2024-07-31.cbor", ["--at", "2024-07-31T20:18:27.047Z", "--policy", policy.path])
        #expect(denied.json["reason"] as? String == "measurement_not_allowed")
    }
}

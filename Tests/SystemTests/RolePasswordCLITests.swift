import AlfredTestCluster
import Foundation
import PostgresNIO
import Store
import Testing

/// `alfred migrate --role-passwords DIR`, the way docker-compose's `migrate` service runs it with its
/// secret files: each service role gets the password in its file, only as a SCRAM verifier, and a
/// missing file changes nothing and is named.
@Suite(.timeLimit(.minutes(5))) struct RolePasswordCLITests {
    @Test func migrateSetsEachServiceRolesPasswordFromItsFileAndAMissingOneChangesNothing() async throws {
        let url = try await TestDatabase.fresh()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("role-passwords-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let passwords = Dictionary(uniqueKeysWithValues: RolePasswords.roles.map { ($0, "pw-\($0)-\(UUID().uuidString)") })
        for (role, password) in passwords {
            try Data("\(password)\n".utf8).write(to: folder.appendingPathComponent("\(role)_password"))
        }
        let environment = ["ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_MIGRATIONS": Repository.url("migrations").path]
        let result = try await run(try AlfredBinary.path, ["migrate", "--role-passwords", folder.path], environment: environment)
        #expect(result.code == 0, "\(result.output)")
        #expect(result.output.contains("set the passwords of alfred_worker, alfred_broker, alfred_api"), "\(result.output)")
        #expect(!passwords.values.contains { result.output.contains($0) }, "a password was printed")

        let verifiers = try await TestDatabase.withClient(url) { client in
            var verifiers: [String: String] = [:]
            for role in RolePasswords.roles {
                let stored = try #require(try await RolePasswordsTests.storedPassword(of: role, client), "\(role) has no password")
                let (salt, iterations) = try RolePasswordsTests.saltAndIterations(stored)
                #expect(RolePasswords.verifier(password: passwords[role]!, salt: salt, iterations: iterations) == stored, "\(role)")
                #expect(!stored.contains(passwords[role]!))
                verifiers[role] = stored
            }
            return verifiers
        }

        // One file gone: refused before any role changes, naming the file.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("alfred_api_password"))
        try Data("another\n".utf8).write(to: folder.appendingPathComponent("alfred_worker_password"))
        let refused = try await run(try AlfredBinary.path, ["migrate", "--role-passwords", folder.path], environment: environment)
        #expect(refused.code != 0)
        #expect(refused.output.contains("alfred_api_password") && refused.output.contains("cannot read the secret file"), "\(refused.output)")
        try await TestDatabase.withClient(url) { client in
            for role in RolePasswords.roles {
                let stored = try await RolePasswordsTests.storedPassword(of: role, client)
                #expect(stored == verifiers[role], "\(role) changed")
            }
        }
    }

    /// A service reads its database password from a file: the URL holds none, and a URL that holds
    /// one beside a file is refused (one place for a secret).
    @Test func aServiceTakesItsDatabasePasswordFromAFileOnly() async throws {
        let url = try await TestDatabase.fresh()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("db-password-\(UUID().uuidString.prefix(8))")
        try Data("whatever-trust-auth-ignores\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var bare = url
        bare.password = nil
        let fromFile = try await run(try AlfredBinary.path, ["jobs", "stats"], environment: [
            "ALFRED_DATABASE_URL": bare.secretString.unsafeValue, "ALFRED_DATABASE_PASSWORD_FILE": file.path,
        ])
        #expect(fromFile.code == 0, "\(fromFile.output)")
        var withPassword = url
        withPassword.password = .init("inline")
        let both = try await run(try AlfredBinary.path, ["jobs", "stats"], environment: [
            "ALFRED_DATABASE_URL": withPassword.secretString.unsafeValue, "ALFRED_DATABASE_PASSWORD_FILE": file.path,
        ])
        #expect(both.code != 0 && both.output.contains("keep the password in the file only"), "\(both.output)")
        #expect(!both.output.contains("inline") && !both.output.contains("whatever-trust"), "\(both.output)")
    }
}

/// Role passwords are set as SCRAM verifiers computed here (issue #32: compose passes passwords as
/// secret files, and the server never gets one in a statement). The verifier must be the one
/// PostgreSQL itself stores for the same password, salt and iteration count, or nobody could log in.
@Suite(.timeLimit(.minutes(5))) struct RolePasswordsTests {
    /// `SCRAM-SHA-256$<iterations>:<salt>$…` → iterations and salt.
    static func saltAndIterations(_ stored: String) throws -> (salt: [UInt8], iterations: Int) {
        let parts = stored.split(separator: "$")
        let head = try #require(parts.count == 3 ? parts[1].split(separator: ":") : nil, "\(stored.prefix(14))…")
        let iterations = try #require(Int(head[0]))
        let salt = try #require(Data(base64Encoded: String(head[1])))
        return (Array(salt), iterations)
    }

    static func storedPassword(of role: String, _ client: PostgresClient) async throws -> String? {
        let rows = try await client.query("SELECT rolpassword FROM pg_authid WHERE rolname = \(role)", logger: TestDatabase.quietLogger)
        for try await stored in rows.decode(String?.self) { return stored }
        return nil
    }

    @Test func ourVerifierIsTheOnePostgresStoresForTheSamePassword() async throws {
        let url = try await TestDatabase.fresh()
        let role = "scram_probe_\(UInt32.random(in: 0 ... .max))"
        let password = "correct horse \(UUID().uuidString) ünïcode"
        try await TestDatabase.withClient(url) { client in
            let logger = TestDatabase.quietLogger
            try await client.query("SET password_encryption = 'scram-sha-256'", logger: logger)
            try await client.query(PostgresQuery(unsafeSQL: "CREATE ROLE \(role) PASSWORD '\(password)'"), logger: logger)
            defer { Task { try? await TestDatabase.withClient(url) { try await $0.query(PostgresQuery(unsafeSQL: "DROP ROLE IF EXISTS \(role)"), logger: logger) } } }
            let stored = try #require(try await Self.storedPassword(of: role, client))
            let (salt, iterations) = try Self.saltAndIterations(stored)
            #expect(RolePasswords.verifier(password: password, salt: salt, iterations: iterations) == stored)
            #expect(RolePasswords.verifier(password: password + "x", salt: salt, iterations: iterations) != stored)
            try await client.query(PostgresQuery(unsafeSQL: "DROP ROLE \(role)"), logger: logger)
        }
    }
}

import AlfredCore
import Crypto
import Foundation
import Logging
import PostgresNIO

/// Sets the service roles' passwords from files (docker-compose secrets, systemd credentials), so a
/// password is never on a command line, in an environment value or in a statement: the server gets
/// only the SCRAM-SHA-256 verifier computed here, which it stores as is (a statement logged on an
/// error shows no password).
public enum RolePasswords {
    /// Each role a migration creates for a service, and its file in the directory: `<role>_password`.
    public static let roles = ["alfred_worker", "alfred_broker", "alfred_api"]

    /// Reads `<directory>/<role>_password` for every role (trailing newline dropped) and sets it.
    public static func set(from directory: URL, client: PostgresClient, logger: Logger) async throws -> [String] {
        var verifiers: [(role: String, verifier: String)] = []
        for role in roles {
            let file = directory.appendingPathComponent("\(role)_password")
            let password = try PrivateFile.secretLine(file)
            verifiers.append((role, verifier(password: password, salt: Array(SymmetricKey(size: .init(bitCount: 128)).withUnsafeBytes(Array.init)))))
        }
        for (role, verifier) in verifiers {
            try await client.query(RoleSQL.setPassword(role: role, verifier: verifier), logger: logger)
        }
        return verifiers.map(\.role)
    }

    /// PostgreSQL's stored form of a SCRAM-SHA-256 password (RFC 5802, RFC 7677):
    /// `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, all base64.
    public static func verifier(password: String, salt: [UInt8], iterations: Int = 4096) -> String {
        let salted = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations)
        let key = SymmetricKey(data: salted)
        let clientKey = Data(HMAC<SHA256>.authenticationCode(for: Array("Client Key".utf8), using: key))
        let storedKey = Data(SHA256.hash(data: clientKey))
        let serverKey = Data(HMAC<SHA256>.authenticationCode(for: Array("Server Key".utf8), using: key))
        return "SCRAM-SHA-256$\(iterations):\(Data(salt).base64EncodedString())$\(storedKey.base64EncodedString()):\(serverKey.base64EncodedString())"
    }

    /// PBKDF2-HMAC-SHA-256, one 32-byte block (all SCRAM-SHA-256 needs).
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int) -> [UInt8] {
        let key = SymmetricKey(data: password)
        var block = Array(HMAC<SHA256>.authenticationCode(for: salt + [0, 0, 0, 1], using: key))
        var result = block
        for _ in 1..<max(iterations, 1) {
            block = Array(HMAC<SHA256>.authenticationCode(for: block, using: key))
            for index in result.indices { result[index] ^= block[index] }
        }
        return result
    }
}

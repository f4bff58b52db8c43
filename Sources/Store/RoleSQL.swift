import PostgresNIO

/// Statements on database roles. `ALTER ROLE … PASSWORD` takes no bind parameters: the role comes
/// from `RolePasswords.roles` and the verifier is base64, `$` and `:` only (checked here).
enum RoleSQL {
    static func setPassword(role: String, verifier: String) -> PostgresQuery {
        precondition(role.allSatisfy { $0.isLetter || $0 == "_" } && verifier.allSatisfy { $0.isLetter || $0.isNumber || "+/=$:-".contains($0) })
        return PostgresQuery(unsafeSQL: "ALTER ROLE \(role) PASSWORD '\(verifier)'")
    }
}

import Foundation
import PostgresNIO

/// Every column of every table in `public` that holds the user's id, as text, as its 16 bytes or
/// spelled out inside bytes: "table.column" -> rows.
public func userReferences(to user: UUID, in client: PostgresClient) async throws -> [String: Int] {
    let columns = try await client.query("""
        SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        """, logger: TestDatabase.quietLogger).collect().map { try $0.decode((String, String, String).self) }
    guard columns.count > 60 else { throw UserReferenceScanError(columns: columns.count) }
    let text = user.uuidString.lowercased()
    var hits: [String: Int] = [:]
    for (table, column, type) in columns {
        let predicate = type == "bytea"
            ? "(position(convert_to($1, 'UTF8') IN \"\(column)\") > 0 OR position(decode(replace($1, '-', ''), 'hex') IN \"\(column)\") > 0)"
            : "strpos(lower(\"\(column)\"::text), $1) > 0"
        var bindings = PostgresBindings()
        bindings.append(text)
        let count = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(table)\" WHERE \(predicate)", binds: bindings),
                                           logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? 0
        if count > 0 { hits["\(table).\(column)"] = count }
    }
    return hits
}

struct UserReferenceScanError: Error, CustomStringConvertible {
    let columns: Int
    var description: String { "the information_schema scan saw only \(columns) columns: is the database migrated?" }
}

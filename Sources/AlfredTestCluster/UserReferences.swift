import Foundation
import PostgresNIO

/// Every column of every table in `public` whose value holds `needle`: as text (case-insensitive),
/// as UTF-8 inside bytes, and, when `rawBytes` is given, as those bytes (a UUID's 16). Returns
/// "table.column" -> rows. Used to prove what is not stored: personal strings, a deleted user's id.
public func columnsContaining(_ needle: String, rawBytes: [UInt8]? = nil, in client: PostgresClient) async throws -> [String: Int] {
    let columns = try await client.query("""
        SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        """, logger: TestDatabase.quietLogger).collect().map { try $0.decode((String, String, String).self) }
    guard columns.count > 60 else { throw ColumnScanError(columns: columns.count) }
    var hits: [String: Int] = [:]
    for (table, column, type) in columns {
        var bindings = PostgresBindings()
        bindings.append(needle.lowercased())
        var predicate = "strpos(lower(\"\(column)\"::text), $1) > 0"
        if type == "bytea" {
            predicate = "position(convert_to($1, 'UTF8') IN \"\(column)\") > 0"
            if let rawBytes {
                bindings.append(ByteBuffer(bytes: rawBytes))
                predicate = "(\(predicate) OR position($2 IN \"\(column)\") > 0)"
            }
        }
        let count = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(table)\" WHERE \(predicate)", binds: bindings),
                                           logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? 0
        if count > 0 { hits["\(table).\(column)"] = count }
    }
    return hits
}

/// Every column of every table in `public` that holds `needle`, as "table.column".
public func plaintextHits(of needle: String, in client: PostgresClient) async throws -> [String] {
    try await columnsContaining(needle, in: client).keys.sorted()
}

/// Every place the user's id is still stored (as text, or as its 16 bytes).
public func userReferences(to user: UUID, in client: PostgresClient) async throws -> [String: Int] {
    let bytes = withUnsafeBytes(of: user.uuid) { Array($0) }
    return try await columnsContaining(user.uuidString, rawBytes: bytes, in: client)
}

struct ColumnScanError: Error, CustomStringConvertible {
    let columns: Int
    var description: String { "the information_schema scan saw only \(columns) columns: is the database migrated?" }
}

import AlfredCore
import Foundation
import Logging
import PostgresNIO

/// A job row as tests assert on it. Test-only reads; product code goes through `JobStore`.
public struct JobRow: Sendable {
    public let state: JobState
    public let attempts: Int
    public let lastError: String?
    public let dueInSeconds: Double
    /// Seconds from the row's last change (`updated_at`) to its `due_at`: the delay a statement
    /// scheduled, exactly, however long the test took to read it.
    public let scheduledDelay: Double
    public let leaseToken: UUID?
    public let nextRunAt: Date?
}

public enum JobRows {
    public static func row(_ id: JobID, client: PostgresClient) async throws -> JobRow? {
        let rows = try await client.query("""
            SELECT state, attempts, last_error, extract(epoch FROM due_at - now())::float8,
                   extract(epoch FROM due_at - updated_at)::float8, lease_token, next_run_at
            FROM jobs WHERE id = \(id.uuid)
            """, logger: Logger(label: "test"))
        for try await (state, attempts, error, due, delay, token, next) in rows.decode(
            (String, Int32, String?, Double, Double, UUID?, Date?).self)
        {
            return JobRow(state: JobState(rawValue: state)!, attempts: Int(attempts), lastError: error,
                          dueInSeconds: due, scheduledDelay: delay, leaseToken: token, nextRunAt: next)
        }
        return nil
    }

    public static func count(state: JobState, client: PostgresClient) async throws -> Int {
        let rows = try await client.query("SELECT count(*)::int8 FROM jobs WHERE state = \(state.rawValue)",
                                          logger: Logger(label: "test"))
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}


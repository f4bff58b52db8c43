import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `SealedDataStore` on PostgreSQL (role `alfred_worker`, or the operator's for `usage`).
public struct PostgresSealedDataStore: SealedDataStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func cells(_ column: SealedColumn, notStartingWith header: [UInt8], after: (key: String, subkey: String)?,
                      limit: Int) async throws -> [SealedCell] {
        var cells: [SealedCell] = []
        let rows = try await Pooled.rows(client, SealedDataSQL.cells(column, notStartingWith: header, after: after, limit: limit), logger: logger)
        for (key, subkey, userID, sealed) in try rows.decode((String, String, UUID?, ByteBuffer).self) {
            cells.append(SealedCell(key: key, subkey: subkey, userID: userID, sealed: Array(buffer: sealed)))
        }
        return cells
    }

    public func replace(_ column: SealedColumn, _ cell: SealedCell, with sealed: [UInt8]) async throws -> Bool {
        !(try await Pooled.rows(client, SealedDataSQL.replace(column, cell, with: sealed), logger: logger).isEmpty)
    }

    public func sealedJobs(after: UUID?, limit: Int) async throws -> [SealedJobPayload] {
        var jobs: [SealedJobPayload] = []
        let rows = try await Pooled.rows(client, SealedDataSQL.sealedJobs(after: after, limit: limit), logger: logger)
        for (id, userID, kind, payload) in try rows.decode((UUID, UUID?, String, ByteBuffer).self) {
            jobs.append(SealedJobPayload(id: id, userID: userID, kind: kind, payload: Array(buffer: payload)))
        }
        return jobs
    }

    public func replacePayload(of job: SealedJobPayload, with payload: [UInt8]) async throws -> Bool {
        !(try await Pooled.rows(client, SealedDataSQL.replacePayload(of: job, with: payload), logger: logger).isEmpty)
    }

    public func usage() async throws -> [SealedColumn: [String: Int]] {
        var usage: [SealedColumn: [String: Int]] = [:]
        for (column, key, count) in try await Pooled.rows(client, SealedDataSQL.usage, logger: logger).decode((String, String, Int32).self) {
            guard let column = SealedColumn(rawValue: column) else { continue }
            usage[column, default: [:]][key] = Int(count)
        }
        return usage
    }
}

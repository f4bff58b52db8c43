import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `PrivacyStore` on PostgreSQL (role `alfred_worker`, or the operator's).
public struct PostgresPrivacyStore: PrivacyStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func openDeleteAll(userID: UUID) async throws -> (request: UUID, created: Bool) {
        for (id, created) in try await Pooled.rows(client, PrivacySQL.openDeleteAll(id: UUID(), userID: userID), logger: logger)
            .decode((UUID, Bool).self) { return (id, created) }
        // Lost a race with a request that completed in between: open a fresh one.
        return try await openDeleteAll(userID: userID)
    }

    public func request(_ id: UUID) async throws -> PrivacyRequest? {
        try await request(id, of: nil)
    }

    public func request(_ id: UUID, of userID: UUID?) async throws -> PrivacyRequest? {
        let rows = try await Pooled.rows(client, PrivacySQL.request(id: id, userID: userID), logger: logger)
        for (state, requested, started, completed, revoked, pending, counts, outcome) in try rows.decode(
            (String, Date, Date?, Date?, Int32, Int32, String?, String?).self)
        {
            let rowsDeleted = counts.flatMap { try? JSONDecoder().decode([String: Int].self, from: Data($0.utf8)) }
            return PrivacyRequest(id: id, state: PrivacyRequest.State(rawValue: state) ?? .queued, requestedAt: requested,
                                  startedAt: started, completedAt: completed, connectorsRevoked: Int(revoked),
                                  revocationsPending: Int(pending), rowsDeleted: rowsDeleted,
                                  outcome: outcome.flatMap(PrivacyRequest.Outcome.init(rawValue:)))
        }
        return nil
    }

    public func start(_ request: UUID) async throws -> UUID? {
        for user in try await Pooled.rows(client, PrivacySQL.start(id: request), logger: logger).decode(UUID?.self) {
            return user
        }
        return nil
    }

    public func connectorsToRevoke(userID: UUID) async throws -> [UUID] {
        var ids: [UUID] = []
        for id in try await Pooled.rows(client, PrivacySQL.connectorsToRevoke(userID: userID), logger: logger)
            .decode(UUID.self) { ids.append(id) }
        return ids
    }

    public func countRevoked(_ request: UUID) async throws {
        _ = try await Pooled.rows(client, PrivacySQL.countRevoked(id: request), logger: logger)
    }

    public func parkRevocation(connector: UUID, request: UUID) async throws {
        _ = try await Pooled.rows(client, PrivacySQL.park(connector: connector, request: request), logger: logger)
    }

    public func deleteUser(_ request: UUID) async throws -> PrivacyRequest {
        _ = try await Pooled.rows(client, PrivacySQL.deleteUser(request: request), logger: logger)
        guard let done = try await self.request(request) else { throw StoreError.privacyRequestMissing(request) }
        return done
    }

    public func revocationSettled(request: UUID) async throws {
        _ = try await Pooled.rows(client, PrivacySQL.revocationSettled(request: request), logger: logger)
    }

    /// Everything stored about the user, as JSON (sealed columns named, not included).
    public func export(userID: UUID) async throws -> String {
        for json in try await Pooled.rows(client, PrivacySQL.export(userID: userID), logger: logger).decode(String.self) {
            return json
        }
        return "{}"
    }

    public func backlogAges() async throws -> (openRequest: Double?, parkedRevocation: Double?) {
        for (request, parked) in try await Pooled.rows(client, PrivacySQL.backlogAges, logger: logger).decode((Double?, Double?).self) {
            return (request, parked)
        }
        return (nil, nil)
    }

    /// Revocations still waiting for Google: (connector, request, parked at).
    public func parkedRevocations() async throws -> [(connector: UUID, request: UUID, parkedAt: Date)] {
        var parked: [(connector: UUID, request: UUID, parkedAt: Date)] = []
        for (connector, request, at) in try await Pooled.rows(client, PrivacySQL.parkedRevocations, logger: logger)
            .decode((UUID, UUID, Date).self) { parked.append((connector, request, at)) }
        return parked
    }
}

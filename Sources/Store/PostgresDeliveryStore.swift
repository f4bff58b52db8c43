import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `DeliveryStore` on PostgreSQL (role `alfred_worker`).
///
/// Begin and Record go through a `StatementBatcher` each: in a burst, the runs that start (or finish)
/// while a statement is in flight share the next one, which is what keeps Postgres's work per push
/// small when ten thousand reminders are due in the same second.
public struct PostgresDeliveryStore: DeliveryStore {
    let client: PostgresClient
    let logger: Logger
    private let begins: StatementBatcher<UUID, UUID, DeliveryPlan?>
    private let records: StatementBatcher<RecordRequest, String, Bool>

    struct RecordRequest: Sendable {
        let key: String, jobID: UUID, outcomes: [SendOutcome], finish: DeliveryPlan.State?, audit: DeliveryAudit?
    }

    /// - Parameter maxInFlight: statements of each kind running at once (each holds a connection).
    public init(client: PostgresClient, logger: Logger, maxInFlight: Int = 2) {
        self.client = client
        self.logger = logger
        begins = StatementBatcher(maxInFlight: maxInFlight, key: { $0 }) { jobIDs in
            try await Self.begin(jobIDs, client: client, logger: logger)
        }
        records = StatementBatcher(maxInFlight: maxInFlight, key: { $0.key }) { requests in
            try await Self.record(requests, client: client, logger: logger)
        }
    }

    public func beginDelivery(jobID: UUID) async throws -> DeliveryPlan? {
        try await begins.submit(jobID)
    }

    public func recordSends(key: String, jobID: UUID, outcomes: [SendOutcome], finish: DeliveryPlan.State?,
                            audit: DeliveryAudit?) async throws -> Bool {
        try await records.submit(RecordRequest(key: key, jobID: jobID, outcomes: outcomes, finish: finish, audit: audit))
    }

    private static func begin(_ jobIDs: [UUID], client: PostgresClient, logger: Logger) async throws -> [DeliveryPlan?] {
        struct Partial {
            var key: String, userID: UUID, kind: String, deadline: Date?, state: String, pastDeadline: Bool
            var devices: [DeviceTarget] = [], sends: [UUID: DeliveryPlan.SendState] = [:], claimed: [UUID: UUID] = [:]
        }
        var plans: [UUID: Partial] = [:]
        for row in try await Pooled.execute(client, DeliverySQL.Begin(jobIDs: jobIDs), logger: logger) {
            let (jobID, key, userID, kind, deadline, state, device, environment, sealed, updated, sent, sentStates, apnsID, past) = row
            var plan = plans[jobID] ?? {
                var plan = Partial(key: key, userID: userID, kind: kind, deadline: deadline, state: state, pastDeadline: past)
                for (id, sendState) in zip(sent, sentStates) { plan.sends[id] = DeliveryPlan.SendState(rawValue: sendState) }
                return plan
            }()
            if let device, let environment, let sealed, let updated {
                plan.devices.append(DeviceTarget(id: device, environment: environment, tokenSealed: Array(buffer: sealed), registeredAt: updated))
                if let apnsID { plan.claimed[device] = apnsID }
            }
            plans[jobID] = plan
        }
        return jobIDs.map { jobID in
            plans[jobID].map { p in
                DeliveryPlan(idempotencyKey: p.key, userID: p.userID, kind: p.kind, deadline: p.deadline,
                             state: DeliveryPlan.State(rawValue: p.state) ?? .failed, devices: p.devices, sends: p.sends,
                             claimed: p.claimed, pastDeadline: p.pastDeadline)
            }
        }
    }

    private static func record(_ requests: [RecordRequest], client: PostgresClient, logger: Logger) async throws -> [Bool] {
        var statement = DeliverySQL.Record()
        for request in requests {
            var firstAccepted: Date?
            for outcome in request.outcomes {
                switch outcome.result {
                case .accepted(let at):
                    statement.final(request.key, outcome.deviceID, "accepted", "")
                    firstAccepted = min(firstAccepted ?? at, at)
                case .retire(let reason):
                    statement.final(request.key, outcome.deviceID, "rejected", reason)
                    statement.retireDevices.append(outcome.deviceID)
                    statement.retireReasons.append(reason)
                case .rejected(let reason): statement.final(request.key, outcome.deviceID, "rejected", reason)
                case .unconfirmed: statement.final(request.key, outcome.deviceID, "unconfirmed", "")
                case .retry:
                    statement.retryKeys.append(request.key)
                    statement.retryDevices.append(outcome.deviceID)
                }
            }
            statement.keys.append(request.key)
            statement.jobIDs.append(request.jobID)
            statement.firstAccepted.append(firstAccepted ?? Date(timeIntervalSince1970: 0))
            statement.finish.append(request.finish?.rawValue ?? "")
            if let audit = request.audit, request.finish != nil {
                statement.auditUsers.append(audit.userID)
                statement.auditResults.append(audit.result)
                statement.auditMetadata.append(String(decoding: try JSONSerialization.data(withJSONObject: audit.metadata, options: [.sortedKeys]),
                                                      as: UTF8.self))
            }
        }
        var setNow: [String: Bool] = [:]
        for (key, first, _) in try await Pooled.execute(client, statement, logger: logger) { setNow[key] = first }
        return requests.map { setNow[$0.key] ?? false }
    }

    public func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID {
        for id in try await Pooled.rows(client, DeliverySQL.registerDevice(
            id: UUID(), userID: userID, tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed), environment: environment), logger: logger
        ).decode(UUID.self) { return id }
        throw PostgresDeliveryStoreError(description: "device registration returned no row")
    }
}

extension DeliverySQL.Record {
    mutating func final(_ key: String, _ device: UUID, _ state: String, _ reason: String) {
        outcomeKeys.append(key); outcomeDevices.append(device); outcomeStates.append(state); outcomeReasons.append(reason)
    }
}

struct PostgresDeliveryStoreError: Error, CustomStringConvertible { let description: String }

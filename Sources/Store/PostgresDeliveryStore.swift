import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `DeliveryStore` on PostgreSQL (role `alfred_worker`). Runs that happen at once — a
/// top-of-the-hour burst — open and record together: one statement for many pushes (`Batcher`),
/// which is what lets one database keep up with thousands of pushes a second.
public final class PostgresDeliveryStore: DeliveryStore {
    let client: PostgresClient
    let logger: Logger
    private let begins: Batcher<UUID, DeliveryPlan?>
    private let records: Batcher<RecordRequest, Bool>
    static let maxBatch = 200

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        begins = Batcher(maxBatch: Self.maxBatch) { jobIDs in try await Self.begin(jobIDs, client: client, logger: logger) }
        records = Batcher(maxBatch: Self.maxBatch) { requests in try await Self.record(requests, client: client, logger: logger) }
    }

    public func beginDelivery(jobID: UUID) async throws -> DeliveryPlan? {
        try await begins.submit(jobID)
    }

    public func recordSends(key: String, jobID: UUID, outcomes: [SendOutcome], finish: DeliveryPlan.State?) async throws -> Bool {
        try await records.submit(RecordRequest(key: key, jobID: jobID, outcomes: outcomes, finish: finish))
    }

    public func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID {
        for try await id in try await client.query(DeliverySQL.registerDevice(
            id: UUID(), userID: userID, tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed), environment: environment), logger: logger
        ).decode(UUID.self) { return id }
        throw PostgresDeliveryStoreError(description: "device registration returned no row")
    }

    private static func begin(_ jobIDs: [UUID], client: PostgresClient, logger: Logger) async throws -> [DeliveryPlan?] {
        struct Building {
            var header: (key: String, userID: UUID, kind: String, deadline: Date?, state: String)
            var devices: [DeviceTarget] = []
            var sends: [UUID: DeliveryPlan.SendState] = [:]
            var claimed: [UUID: UUID] = [:]
        }
        var plans: [UUID: Building] = [:]
        for try await row in try await client.query(DeliverySQL.begin(jobIDs: jobIDs), logger: logger).decode(
            (UUID, String, UUID, String, Date?, String, UUID?, String?, ByteBuffer?, Date?, [UUID], [String], UUID?).self)
        {
            let (jobID, key, userID, kind, deadline, state, device, environment, sealed, updated, sent, sentStates, apnsID) = row
            var plan = plans[jobID] ?? {
                var fresh = Building(header: (key, userID, kind, deadline, state))
                for (id, sendState) in zip(sent, sentStates) { fresh.sends[id] = DeliveryPlan.SendState(rawValue: sendState) }
                return fresh
            }()
            if let device, let environment, let sealed, let updated {
                plan.devices.append(DeviceTarget(id: device, environment: environment, tokenSealed: Array(buffer: sealed), registeredAt: updated))
                if let apnsID { plan.claimed[device] = apnsID }
            }
            plans[jobID] = plan
        }
        return jobIDs.map { id in
            plans[id].map { p in
                DeliveryPlan(idempotencyKey: p.header.key, userID: p.header.userID, kind: p.header.kind, deadline: p.header.deadline,
                             state: DeliveryPlan.State(rawValue: p.header.state) ?? .failed, devices: p.devices, sends: p.sends,
                             claimed: p.claimed)
            }
        }
    }

    private static func record(_ requests: [RecordRequest], client: PostgresClient, logger: Logger) async throws -> [Bool] {
        var batch = DeliverySQL.RecordBatch()
        for request in requests {
            var firstAccepted: Date?
            for outcome in request.outcomes {
                let (state, reason): (String?, String) = switch outcome.result {
                case .accepted(let at): { firstAccepted = min(firstAccepted ?? at, at); return ("accepted", "") }()
                case .retire(let reason): { batch.retireDevices.append(outcome.deviceID); batch.retireReasons.append(reason); return ("rejected", reason) }()
                case .rejected(let reason): ("rejected", reason)
                case .unconfirmed: ("unconfirmed", "")
                case .retry: { batch.retryKeys.append(request.key); batch.retryDevices.append(outcome.deviceID); return (nil, "") }()
                }
                if let state {
                    batch.finalKeys.append(request.key); batch.finalDevices.append(outcome.deviceID)
                    batch.finalStates.append(state); batch.finalReasons.append(reason)
                }
            }
            batch.keys.append(request.key)
            batch.jobIDs.append(request.jobID)
            batch.firstAccepted.append(firstAccepted ?? Date(timeIntervalSince1970: 0))
            batch.finishes.append(request.finish?.rawValue ?? "")
        }
        var first: [String: Bool] = [:]
        for try await (key, wasFirst) in try await client.query(DeliverySQL.record(batch), logger: logger).decode((String, Bool).self) {
            first[key] = wasFirst || (first[key] ?? false)
        }
        return requests.map { first[$0.key] ?? false }
    }
}

/// One run's outcome, as `recordSends` takes it.
struct RecordRequest: Sendable {
    let key: String
    let jobID: UUID
    let outcomes: [SendOutcome]
    let finish: DeliveryPlan.State?
}

struct PostgresDeliveryStoreError: Error, CustomStringConvertible { let description: String }

import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `DeliveryStore` on PostgreSQL (role `alfred_worker`).
public struct PostgresDeliveryStore: DeliveryStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func deliveryPlan(jobID: UUID) async throws -> DeliveryPlan? {
        var header: (String, UUID, String, Date?, String)?
        var devices: [DeviceTarget] = []
        var sends: [UUID: DeliveryPlan.SendState] = [:]
        for try await row in try await client.query(DeliverySQL.plan(jobID: jobID), logger: logger).decode(
            (String, UUID, String, Date?, String, UUID?, String?, ByteBuffer?, Date?, [UUID], [String]).self)
        {
            let (key, userID, kind, deadline, state, device, environment, sealed, updated, sent, sentStates) = row
            if header == nil {
                header = (key, userID, kind, deadline, state)
                for (id, sendState) in zip(sent, sentStates) { sends[id] = DeliveryPlan.SendState(rawValue: sendState) }
            }
            if let device, let environment, let sealed, let updated {
                devices.append(DeviceTarget(id: device, environment: environment, tokenSealed: Array(buffer: sealed), registeredAt: updated))
            }
        }
        guard let (key, userID, kind, deadline, state) = header else { return nil }
        return DeliveryPlan(idempotencyKey: key, userID: userID, kind: kind, deadline: deadline,
                            state: DeliveryPlan.State(rawValue: state) ?? .failed, devices: devices, sends: sends)
    }

    public func beginSends(key: String, userID: UUID, devices: [(id: UUID, apnsID: UUID)]) async throws -> Set<UUID> {
        guard !devices.isEmpty else { return [] }
        var claimed: Set<UUID> = []
        for try await id in try await client.query(
            DeliverySQL.beginSends(key: key, userID: userID, devices: devices.map(\.id), apnsIDs: devices.map(\.apnsID)), logger: logger
        ).decode(UUID.self) { claimed.insert(id) }
        return claimed
    }

    public func recordSends(key: String, jobID: UUID, outcomes: [SendOutcome], finish: DeliveryPlan.State?) async throws -> Bool {
        var final: [(UUID, String, String)] = [], retry: [UUID] = [], retire: [(UUID, String)] = []
        var firstAccepted: Date?
        for outcome in outcomes {
            switch outcome.result {
            case .accepted(let at):
                final.append((outcome.deviceID, "accepted", ""))
                firstAccepted = min(firstAccepted ?? at, at)
            case .retire(let reason):
                final.append((outcome.deviceID, "rejected", reason))
                retire.append((outcome.deviceID, reason))
            case .rejected(let reason): final.append((outcome.deviceID, "rejected", reason))
            case .unconfirmed: final.append((outcome.deviceID, "unconfirmed", ""))
            case .retry: retry.append(outcome.deviceID)
            }
        }
        for try await first in try await client.query(DeliverySQL.record(
            key: key, jobID: jobID, devices: final.map(\.0), states: final.map(\.1), reasons: final.map(\.2), retry: retry,
            retire: retire.map(\.0), retireReasons: retire.map(\.1), firstAccepted: firstAccepted, finish: finish?.rawValue ?? ""),
            logger: logger
        ).decode(Bool.self) { return first }
        return false
    }

    public func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID {
        for try await id in try await client.query(DeliverySQL.registerDevice(
            id: UUID(), userID: userID, tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed), environment: environment), logger: logger
        ).decode(UUID.self) { return id }
        throw PostgresDeliveryStoreError(description: "device registration returned no row")
    }
}

struct PostgresDeliveryStoreError: Error, CustomStringConvertible { let description: String }

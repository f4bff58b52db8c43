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

    public func beginDelivery(jobID: UUID) async throws -> DeliveryPlan? {
        var header: (String, UUID, String, Date?, String)?
        var devices: [DeviceTarget] = []
        var sends: [UUID: DeliveryPlan.SendState] = [:]
        var claimed: [UUID: UUID] = [:]
        var pastDeadline = false
        for row in try await Pooled.execute(client, DeliverySQL.Begin(jobID: jobID), logger: logger) {
            let (key, userID, kind, deadline, state, device, environment, sealed, updated, sent, sentStates, apnsID, past) = row
            if header == nil {
                header = (key, userID, kind, deadline, state)
                pastDeadline = past
                for (id, sendState) in zip(sent, sentStates) { sends[id] = DeliveryPlan.SendState(rawValue: sendState) }
            }
            if let device, let environment, let sealed, let updated {
                devices.append(DeviceTarget(id: device, environment: environment, tokenSealed: Array(buffer: sealed), registeredAt: updated))
                if let apnsID { claimed[device] = apnsID }
            }
        }
        guard let (key, userID, kind, deadline, state) = header else { return nil }
        return DeliveryPlan(idempotencyKey: key, userID: userID, kind: kind, deadline: deadline,
                            state: DeliveryPlan.State(rawValue: state) ?? .failed, devices: devices, sends: sends, claimed: claimed,
                            pastDeadline: pastDeadline)
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
        for first in try await Pooled.execute(client, DeliverySQL.Record(
            key: key, jobID: jobID, devices: final.map(\.0), states: final.map(\.1), reasons: final.map(\.2), retry: retry,
            retire: retire.map(\.0), retireReasons: retire.map(\.1), firstAccepted: firstAccepted, finish: finish?.rawValue ?? ""),
            logger: logger) { return first }
        return false
    }

    public func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID {
        for id in try await Pooled.rows(client, DeliverySQL.registerDevice(
            id: UUID(), userID: userID, tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed), environment: environment), logger: logger
        ).decode(UUID.self) { return id }
        throw PostgresDeliveryStoreError(description: "device registration returned no row")
    }
}

struct PostgresDeliveryStoreError: Error, CustomStringConvertible { let description: String }

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
        for try await row in try await client.query(DeliverySQL.notification(jobID: jobID), logger: logger)
            .decode((String, UUID, String, Date?, String).self) { header = row }
        guard let (key, userID, kind, deadline, state) = header else { return nil }
        var devices: [DeviceTarget] = []
        for try await (id, environment, sealed, updated) in try await client.query(DeliverySQL.activeDevices(userID: userID), logger: logger)
            .decode((UUID, String, ByteBuffer, Date).self) {
            devices.append(DeviceTarget(id: id, environment: environment, tokenSealed: Array(buffer: sealed), registeredAt: updated))
        }
        var sends: [UUID: DeliveryPlan.SendState] = [:]
        for try await (device, sendState) in try await client.query(DeliverySQL.sends(key: key), logger: logger)
            .decode((UUID, String).self) { sends[device] = DeliveryPlan.SendState(rawValue: sendState) }
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
        let logger = logger
        return try await client.withTransaction(logger: logger) { connection in
            if !final.isEmpty {
                _ = try await connection.query(DeliverySQL.finishSends(
                    key: key, devices: final.map(\.0), states: final.map(\.1), reasons: final.map(\.2)), logger: logger)
            }
            if !retry.isEmpty { _ = try await connection.query(DeliverySQL.dropSends(key: key, devices: retry), logger: logger) }
            if !retire.isEmpty {
                _ = try await connection.query(DeliverySQL.retireDevices(retire.map(\.0), reasons: retire.map(\.1)), logger: logger)
            }
            var first = false
            if let firstAccepted {
                for try await _ in try await connection.query(DeliverySQL.firstAccepted(key: key, at: firstAccepted), logger: logger)
                    .decode(Int32.self) { first = true }
            }
            if let finish {
                _ = try await connection.query(DeliverySQL.finish(key: key, jobID: jobID, state: finish.rawValue), logger: logger)
            }
            return first
        }
    }

    public func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID {
        for try await id in try await client.query(DeliverySQL.registerDevice(
            id: UUID(), userID: userID, tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed), environment: environment), logger: logger
        ).decode(UUID.self) { return id }
        throw PostgresDeliveryStoreError(description: "device registration returned no row")
    }
}

struct PostgresDeliveryStoreError: Error, CustomStringConvertible { let description: String }

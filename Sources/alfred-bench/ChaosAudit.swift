import AlfredTestCluster
import APNs
import BrokerClient
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PostgresNIO
import StandIns

/// What the devices show, reconciled with the ledger after the workers stopped. Both sources are
/// outside the harness: the APNs stand-in's record of each device's screen (one entry per collapse
/// id, as iOS shows them) and the `notifications` table.
struct DeviceAudit: Sendable, Equatable {
    struct LedgerRow: Sendable {
        let key: String
        let user: UUID
        let kind: String
        let state: String
    }

    /// Notifications a device shows more than once: entries naming the same notification (the app's
    /// `notification_id`, else the collapse id) on one device.
    var shownMoreThanOnce = 0
    /// Shown alerts that no ledger row of that device's user explains (their collapse id is the row's key).
    var shownWithoutLedgerRow = 0
    /// Ledger rows marked delivered whose user's device shows nothing under their key.
    var deliveredNotShown = 0

    var json: [String: Int] {
        ["shown_more_than_once": shownMoreThanOnce, "shown_without_ledger_row": shownWithoutLedgerRow,
         "delivered_not_shown": deliveredNotShown]
    }

    /// The app's name for a notification: `alfred.notification_id` in the payload, else the collapse id.
    static func notificationID(_ delivery: APNsDelivery) -> String {
        let object = try? JSONSerialization.jsonObject(with: delivery.payload) as? [String: Any]
        return ((object?["alfred"] as? [String: Any])?["notification_id"] as? String) ?? delivery.collapseID ?? delivery.apnsID
    }

    /// The collapse id a ledger key is sent under (Apple allows 64 bytes; the sender cuts longer keys).
    static func collapseID(_ key: String) -> String {
        var id = key
        while id.utf8.count > 64 { id.removeLast() }
        return id
    }

    static func reconcile(shown: [APNsDelivery], ledger: [LedgerRow], deviceOf: [UUID: String]) -> DeviceAudit {
        var audit = DeviceAudit()
        var perNotification: [String: Int] = [:]
        var shownKeys: Set<String> = []
        for delivery in shown {
            perNotification["\(delivery.deviceToken)|\(notificationID(delivery))", default: 0] += 1
            shownKeys.insert("\(delivery.deviceToken)|\(delivery.collapseID ?? "")")
        }
        audit.shownMoreThanOnce = perNotification.values.filter { $0 > 1 }.count
        var explained: Set<String> = []
        for row in ledger {
            guard let device = deviceOf[row.user] else { continue }
            let key = "\(device)|\(collapseID(row.key))"
            explained.insert(key)
            if row.state == "delivered", !shownKeys.contains(key) { audit.deliveredNotShown += 1 }
        }
        audit.shownWithoutLedgerRow = shown.filter { !explained.contains("\($0.deviceToken)|\($0.collapseID ?? "")") }.count
        return audit
    }

    static func read(client: PostgresClient, apnsRoot: String, http: HTTPClient, deviceOf: [UUID: String],
                     logger: Logger) async throws -> (DeviceAudit, shown: [APNsDelivery], ledger: [LedgerRow]) {
        let response = try await http.execute(HTTPClientRequest(url: apnsRoot + "/_fake/shown"), timeout: .seconds(120))
        let shown = try JSONDecoder().decode([APNsDelivery].self, from: Data(buffer: try await response.body.collect(upTo: 1 << 30)))
        var ledger: [LedgerRow] = []
        for try await (key, user, kind, state) in try await client.query("SELECT idempotency_key, user_id, kind, state FROM notifications",
                                                                          logger: logger).decode((String, UUID, String, String).self) {
            ledger.append(LedgerRow(key: key, user: user, kind: kind, state: state))
        }
        return (reconcile(shown: shown, ledger: ledger, deviceOf: deviceOf), shown, ledger)
    }
}

/// Faults planted once the run is counted, each against one check, to show the check can fail on
/// the real data: a second copy of a shown notification pushed straight to the APNs stand-in (under
/// another collapse id, so the device shows it twice), a delivered reminder's ledger row deleted, and
/// a fault that was never caused put to the same confirmation the real ones passed.
enum PlantedFaults {
    struct Detected: Sendable {
        let duplicatePush: Bool
        let droppedLedgerRow: Bool
        let skippedFault: Bool
        /// What the APNs stand-in answered the planted copy.
        var duplicateAnswer = ""

        var all: Bool { duplicatePush && droppedLedgerRow && skippedFault }
        var json: [String: Bool] {
            ["duplicate_push_seen": duplicatePush, "dropped_ledger_row_seen": droppedLedgerRow, "skipped_fault_seen": skippedFault]
        }
    }

    static func plantAndAudit(before: DeviceAudit, shown: [APNsDelivery], ledger: [DeviceAudit.LedgerRow], missingBefore: Int,
                              missing: @Sendable (PostgresClient) async throws -> Int,
                              client: PostgresClient, apns: APNsConfiguration, brokerSocket: String,
                              apnsRoot: String, http: HTTPClient, deviceOf: [UUID: String], unregistered: Set<String>, fleet: Fleet,
                              logger: Logger) async throws -> Detected {
        // A duplicate: a shown notification of a device still registered, again, as the app would
        // see a second copy.
        guard let original = shown.first(where: { !unregistered.contains($0.deviceToken) }) else { return Detected(duplicatePush: false, droppedLedgerRow: false, skippedFault: false) }
        // With the provider token the workers use, from the broker (a freshly minted one would be
        // refused as too many token updates, as Apple does).
        let broker = BrokerClient(configuration: BrokerClient.Configuration(socketPath: brokerSocket))
        defer { Task { await broker.close() } }
        let sender = try APNsClient(configuration: apns, tokens: BrokerProviderTokenSource(client: broker), logger: logger)
        // The run's last error burst may still be pending at the stand-in (a reset, a 503): cleared
        // first, and the copy sent until the stand-in accepts it.
        var clear = HTTPClientRequest(url: apnsRoot + "/_fake/faults")
        clear.method = .DELETE
        _ = try await http.execute(clear, timeout: .seconds(30)).body.collect(upTo: 1 << 16)
        var response = APNsResponse.rejected(status: 0, reason: APNsReason(rawValue: "not sent"), timestamp: nil, retryAfter: nil)
        for _ in 0..<5 {
            guard let answer = try? await sender.send(APNsRequest(
                deviceToken: original.deviceToken, environment: .sandbox, pushType: .alert, priority: 10, expiration: nil,
                collapseID: "planted-duplicate", apnsID: UUID(), payload: Array(original.payload))) else { continue }
            response = answer
            if case .accepted = answer { break }
        }
        await sender.shutdown()
        print("planted: a second copy of one shown notification (APNs: \(response))")
        // A lost ledger row: a delivered reminder of another device.
        let victim = ledger.first { $0.kind == "meeting.reminder" && $0.state == "delivered" && deviceOf[$0.user] != original.deviceToken }
        if let victim {
            try await client.query("DELETE FROM notifications WHERE idempotency_key = \(victim.key)", logger: logger)
            print("planted: one delivered notification's ledger row deleted")
        }
        let (after, _, _) = try await DeviceAudit.read(client: client, apnsRoot: apnsRoot, http: http, deviceOf: deviceOf, logger: logger)
        let missingAfter = try await missing(client)
        let skipped = fleet.confirmUntouched("broker")
        print("planted: a broker kill that never happened: \(skipped.evidence)")
        return Detected(duplicatePush: after.shownMoreThanOnce > before.shownMoreThanOnce,
                        droppedLedgerRow: victim != nil && missingAfter > missingBefore && after.shownWithoutLedgerRow > before.shownWithoutLedgerRow,
                        skippedFault: !skipped.confirmed, duplicateAnswer: "\(response)")
    }
}

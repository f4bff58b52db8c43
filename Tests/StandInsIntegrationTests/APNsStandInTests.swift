import AlfredTestCluster
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import StandIns
import Testing

private typealias AH = APNsHarness

/// The APNs stand-in against external-apis §4.6, over real HTTP/2 + TLS with AsyncHTTPClient.
@Suite(.timeLimit(.minutes(5))) struct APNsStandInTests {
    // MARK: Success

    @Test func acceptedPushIsHTTP2WithApnsIDAndRecorded() async throws {
        try await AH.with { apns in
            let reply = try await apns.push(headers: ["apns-collapse-id": "rem_01HQ3X8Z9K", "apns-expiration": "1772330000"])
            #expect(reply.version == .http2)
            #expect(reply.status == 200)
            #expect(reply.body.isEmpty)
            let apnsID = try #require(reply.apnsID)
            #expect(apnsID == apnsID.lowercased() && UUID(uuidString: apnsID) != nil)

            let delivery = try #require(apns.standIn.deliveries().first)
            #expect(apns.standIn.deliveries().count == 1)
            #expect(delivery.deviceToken == AH.device)
            #expect(delivery.apnsID == apnsID)
            #expect(delivery.pushType == "alert")
            #expect(delivery.priority == 10)
            #expect(delivery.expiration == 1_772_330_000)
            #expect(delivery.collapseID == "rem_01HQ3X8Z9K")
            #expect(delivery.topic == AH.topic)
            #expect(String(decoding: delivery.payload, as: UTF8.self) == AH.alertPayload)
            #expect(delivery.receivedAt == AH.pinned)
            #expect(apns.standIn.requests().map(\.status) == [200])
            #expect(apns.standIn.distinctProviderTokens() == 1)
        }
    }

    // MARK: Headers and payload

    struct HeaderCase: Sendable, CustomTestStringConvertible {
        var name: String
        var reason: String
        var status = 400
        var headers: [String: String?] = [:]
        var extraHeaders: [(String, String)] = []
        var payload = AH.alertPayload
        var testDescription: String { "\(reason): \(name)" }
    }

    // MARK: Faults

    @Test func injectedResetDropsTheConnectionWithoutAnAnswer() async throws {
        try await AH.with { apns async throws in
            apns.standIn.inject(.reset())
            await #expect(throws: (any Error).self) { try await apns.push() }
            // The stand-in records the request as it drops the connection, which the client may see first.
            #expect(try await eventually { apns.standIn.requests().map(\.status) == [0] }, "\(apns.standIn.requests().map(\.status))")
            #expect(apns.standIn.deliveries().isEmpty)
            // The stand-in lives on: a client that reconnects is served. (AsyncHTTPClient may first
            // hand a request to the connection it has not yet noticed is gone, hence the retries.)
            let served = try await eventually { (try? await apns.push())?.status == 200 }
            #expect(served)
            #expect(apns.standIn.requests().last?.status == 200)
            #expect(apns.standIn.deliveries().count == 1)
        }
    }

    /// Apple had the push and the answer was lost: the device shows it although the client saw no 200.
    @Test func acceptThenResetDeliversAndDropsTheConnection() async throws {
        try await AH.with { apns async throws in
            apns.standIn.inject(.acceptThenReset())
            await #expect(throws: (any Error).self) { try await apns.push() }
            #expect(try await eventually { apns.standIn.requests().map(\.status) == [0] })
            #expect(apns.standIn.deliveries().count == 1)
            // The control plane shares the dropped connection's client: the first request after the
            // reset may be handed to the connection AsyncHTTPClient has not yet seen close, hence the retries.
            var shown: [APNsDelivery] = []
            #expect(try await eventually {
                guard let reply = try? await apns.control(.GET, "/_fake/shown"), reply.status == 200 else { return false }
                shown = try JSONDecoder().decode([APNsDelivery].self, from: Data(reply.body.utf8))
                return true
            })
            #expect(shown.count == 1)
            #expect(try await apns.control(.POST, "/_fake/faults", json: #"{"accept_before_reset":true}"#).status == 400,
                    "accept_before_reset needs reset_connection")
        }
    }

    // MARK: Control plane

    @Test func controlPlaneOverTheSameTLSServer() async throws {
        try await AH.with { apns in
            let registered = try await apns.control(.POST, "/_fake/devices", json: #"{"token":"cafe0001","environment":"sandbox"}"#)
            #expect(registered.status == 204)
            #expect(registered.version == .http2)
            #expect(try await apns.push(device: "cafe0001").status == 200)

            let listed = try await apns.control(.GET, "/_fake/deliveries")
            #expect(listed.status == 200)
            let deliveries = try JSONDecoder().decode([APNsDelivery].self, from: Data(listed.body.utf8))
            #expect(deliveries == apns.standIn.deliveries())
            #expect(deliveries.first?.deviceToken == "cafe0001")
            #expect(String(decoding: try #require(deliveries.first).payload, as: UTF8.self) == AH.alertPayload)
            #expect(listed.body.contains(#""received_at_ms":1772323200000"#), "\(listed.body)")

            #expect(try await apns.control(.POST, "/_fake/faults", json: #"{"status":503,"reason":"Shutdown"}"#).status == 204)
            #expect(try await apns.push(device: "cafe0001").reason == "Shutdown")

            let unregistered = try await apns.control(.POST, "/_fake/devices/unregister",
                                                      json: #"{"token":"cafe0001","timestamp_ms":1772441112000}"#)
            #expect(unregistered.status == 204)
            let gone = try await apns.push(device: "cafe0001")
            #expect(gone.status == 410 && (gone.json["timestamp"] as? Int) == 1_772_441_112_000)

            let requests = try await apns.control(.GET, "/_fake/requests")
            let records = try JSONDecoder().decode([APNsRequestRecord].self, from: Data(requests.body.utf8))
            #expect(records.map(\.status) == [200, 503, 410])  // control requests are not recorded

            #expect(try await apns.control(.DELETE, "/_fake/deliveries").status == 204)
            #expect(apns.standIn.deliveries().isEmpty)
        }
    }

    // MARK: Helpers

    /// A JSON object of exactly `bytes` bytes.
    static func payload(bytes: Int) -> String {
        let frame = #"{"aps":{"alert":""}}"#
        return #"{"aps":{"alert":"\#(String(repeating: "x", count: bytes - frame.utf8.count))"}}"#
    }
}

import AlfredTestCluster
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import StandIns
import Synchronization
import Testing

/// The Google stand-in's control plane for Gmail push and request counts, over real sockets, as the
/// Gmail push benchmark drives the `alfred-dev sandbox google` process: a subscription set by a
/// control call makes the stand-in POST Pub/Sub pushes to a real listener, and requests are counted
/// by API method without the recording's cap.
@Suite(.timeLimit(.minutes(2))) struct PubSubControlTests {
    /// A push endpoint on a real socket that keeps what it was sent.
    final class Receiver: Sendable {
        let received = Mutex<[(authorization: String, body: String)]>([])
    }

    @Test func aSubscriptionSetByAControlCallPushesWatchedChangesToItsEndpoint() async throws {
        let receiver = Receiver()
        let router = Router()
        router.post("/push") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            receiver.received.withLock { $0.append((request.headers[.authorization] ?? "", body)) }
            return Response(status: .noContent)
        }
        let logger = TestDatabase.quietLogger
        let port = try EmbeddedPostgres.freePort()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await GoogleServer.with(GoogleServer.dataConfiguration(), clock: StandInClock()) { google in
            try await withRunningServices([app], logger: logger) {
                let http = TestHTTP.client()
                defer { Task { try? await http.shutdown() } }
                // The mailbox is watched, as the worker's gmail.watch does it.
                var watch = HTTPClientRequest(url: google.baseURL + "/gmail/v1/users/me/watch")
                watch.method = .POST
                watch.headers.add(name: "Authorization", value: "Bearer \(try google.token([GoogleServer.gmailMetadata]))")
                watch.headers.add(name: "Content-Type", value: "application/json")
                watch.body = .bytes(ByteBuffer(string: #"{"topicName": "projects/alfred-test/topics/gmail-events"}"#))
                #expect(try await http.execute(watch, timeout: .seconds(30)).status == .ok)

                var bad = HTTPClientRequest(url: google.baseURL + "/_fake/pubsub/subscription")
                bad.method = .PUT
                bad.body = .bytes(ByteBuffer(string: #"{"endpoint": "not a url"}"#))
                let refused = try await http.execute(bad, timeout: .seconds(30))
                #expect(refused.status == .badRequest)
                #expect(String(buffer: try await refused.body.collect(upTo: 1 << 16)).contains("endpoint must be an http(s) URL"))

                var subscribe = HTTPClientRequest(url: google.baseURL + "/_fake/pubsub/subscription")
                subscribe.method = .PUT
                subscribe.body = .bytes(ByteBuffer(string: #"{"endpoint": "http://127.0.0.1:\#(port)/push", "serviceAccount": "push@example.iam.gserviceaccount.com"}"#))
                #expect(try await http.execute(subscribe, timeout: .seconds(30)).status == .noContent)

                var message = HTTPClientRequest(url: google.baseURL + "/_fake/state/messages")
                message.method = .POST
                message.body = .bytes(ByteBuffer(string: #"{"user": "\#(GoogleServer.email)", "message": {"from": "Grace <grace@example.com>", "subject": "Prod is down", "labelIds": ["INBOX", "UNREAD"]}}"#))
                #expect(try await http.execute(message, timeout: .seconds(30)).status == .created)

                #expect(try await eventually(timeout: .seconds(30)) { receiver.received.withLock { !$0.isEmpty } })
                let push = try #require(receiver.received.withLock { $0.first })
                #expect(push.authorization.hasPrefix("Bearer ey"), "the push carries the subscription's OIDC token")
                let wrapped = try #require(try JSONSerialization.jsonObject(with: Data(push.body.utf8)) as? [String: Any])
                let data = try #require((wrapped["message"] as? [String: Any])?["data"] as? String)
                let decoded = try #require(Data(base64Encoded: data))
                let notification = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])
                #expect(notification["emailAddress"] as? String == GoogleServer.email)

                // The stand-in records the push with the endpoint's answer.
                #expect(try await eventually(timeout: .seconds(30)) {
                    let pushes = try JSONSerialization.jsonObject(with: Data(try await google.get("/_fake/pubsub/pushes").utf8)) as? [[String: String]]
                    return pushes?.first?["status"] == "204" && pushes?.first?["email"] == GoogleServer.email
                })

                // Counted by method, control calls left out.
                let countsJSON = try await google.get("/_fake/requests/counts")
                let counts = try #require(try JSONSerialization.jsonObject(with: Data(countsJSON.utf8)) as? [String: Int])
                #expect(counts == ["gmail.watch": 1], "\(counts)")
            }
        }
    }
}

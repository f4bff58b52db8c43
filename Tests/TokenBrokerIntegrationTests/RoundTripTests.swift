import AlfredCore
import Foundation
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker

@Suite(.timeLimit(.minutes(5))) struct RoundTripTests {
    @Test func eachOperationRoundTripsThroughTheSocket() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let handler = FakeTokenLogic()
            try await withBroker(at: socketPath, handler: handler) {
                try await withClient(socketPath: socketPath) { client in
                    try await client.ping()

                    let token = try await client.accessToken(connectorID: "conn-7")
                    #expect(token.token.unsafeValue == "token-for-conn-7")
                    #expect(token.expiresAt == FakeTokenLogic.expiry)
                    #expect("\(token.token)" == "<redacted>")

                    let connected = try await client.exchangeCode(
                        CodeExchange(
                            userID: "user-1", code: Redacted("4/0AbCd"), codeVerifier: Redacted("verifier-xyz"),
                            redirectURI: "https://alfred.invalid/oauth/callback"))
                    #expect(
                        connected
                            == ConnectedConnector(connectorID: "conn-of-user-1", scopes: ["calendar.readonly", "gmail.metadata"]))

                    try await client.revoke(connectorID: "conn-7")
                    #expect(try await client.rewrap(connectorID: "conn-7") == 2)

                    let uid = PeerCredentials.currentUID
                    #expect(
                        handler.calls.all == [
                            "access_token conn-7 uid=\(uid)",
                            "exchange_code user-1 4/0AbCd verifier-xyz https://alfred.invalid/oauth/callback",
                            "revoke conn-7",
                            "rewrap conn-7",
                        ])
                }
            }
        }
    }

    @Test(arguments: [
        ("missing", "not_found", false),
        ("reconsent", "needs_reconsent", false),
        ("flaky", "upstream_unavailable", true),
        ("boom", "internal", false),
    ])
    func handlerErrorsReachTheCallerWithTheirCode(connectorID: String, code: String, retryable: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                try await withClient(socketPath: socketPath) { client in
                    let error = try await #require(throws: BrokerError.self) {
                        try await client.accessToken(connectorID: connectorID)
                    }
                    #expect(error.code.rawValue == code)
                    #expect(error.retryable == retryable)
                    // An unclassified error's text may hold secrets; it must not cross the socket.
                    #expect(!error.message.contains("secret"))
                }
            }
        }
    }

    @Test func wireFormatMatchesTheDocumentedShape() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                let exchange = try await rawExchange(
                    socketPath: socketPath,
                    bytes: frame(#"{"v":1,"id":"t1","op":"access_token","connector_id":"c1"}"#)
                        + frame(#"{"v":1,"id":"t2","op":"exchange_code","user_id":"u","code":"c","code_verifier":"v","redirect_uri":"r"}"#)
                        + frame(#"{"v":1,"id":"t3","op":"revoke","connector_id":"c1"}"#)
                        + frame(#"{"v":1,"id":"t4","op":"ping","extra":"ignored"}"#)
                        + frame(#"{"v":1,"id":"t5","op":"revoke","connector_id":"missing"}"#))
                #expect(exchange.leftoverBytes == 0)
                let byID = Dictionary(uniqueKeysWithValues: exchange.responses.map { ($0.responseID ?? "", $0) })
                #expect(byID.count == 5)

                let token = try #require(byID["t1"])
                #expect(token["ok"] as? Bool == true)
                #expect(token["access_token"] as? String == "token-for-c1")
                #expect(token["expires_at"] as? Int == 1_900_000_000)

                let connected = try #require(byID["t2"])
                #expect(connected["connector_id"] as? String == "conn-of-u")
                #expect(connected["scopes"] as? [String] == ["calendar.readonly", "gmail.metadata"])

                #expect(Set(try #require(byID["t3"]).keys) == ["v", "id", "ok"])
                #expect(Set(try #require(byID["t4"]).keys) == ["v", "id", "ok"])

                let failure = try #require(byID["t5"])
                #expect(failure["ok"] as? Bool == false)
                let error = try #require(failure["error"] as? [String: Any])
                #expect(error["code"] as? String == "not_found")
                #expect(error["retryable"] as? Bool == false)
                #expect(error["message"] is String)
            }
        }
    }

    @Test func requestFramesEncodeSecretsOnlyOnTheWire() throws {
        let request = BrokerRequestFrame(
            id: "x",
            request: .exchangeCode(
                CodeExchange(userID: "u", code: Redacted("the-code"), codeVerifier: Redacted("the-verifier"), redirectURI: "r")))
        #expect(!"\(request)".contains("the-code"))
        #expect(!"\(request)".contains("the-verifier"))
        let decoded = try JSONDecoder().decode(BrokerRequestFrame.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
    }
}

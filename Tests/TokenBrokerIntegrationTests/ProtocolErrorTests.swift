import Foundation
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker

@Suite(.timeLimit(.minutes(5))) struct ProtocolErrorTests {
    /// (payload, expected error code, expected echoed id)
    static let malformedRequests: [(String, String, String?)] = [
        ("not json at all", "bad_request", nil),
        ("", "bad_request", nil),
        ("[1,2,3]", "bad_request", nil),
        (#"{"v":1,"op":"ping"}"#, "bad_request", nil),
        (#"{"v":1,"id":7,"op":"ping"}"#, "bad_request", nil),
        (#"{"v":"1","id":"a","op":"ping"}"#, "bad_request", "a"),
        (#"{"id":"b","op":"ping"}"#, "bad_request", "b"),
        (#"{"v":2,"id":"c","op":"ping"}"#, "unsupported_version", "c"),
        (#"{"v":1,"id":"d","op":"teleport"}"#, "unknown_op", "d"),
        (#"{"v":1,"id":"e"}"#, "bad_request", "e"),
        (#"{"v":1,"id":"f","op":"access_token"}"#, "bad_request", "f"),
        (#"{"v":1,"id":"g","op":"access_token","connector_id":""}"#, "bad_request", "g"),
        (#"{"v":1,"id":"h","op":"revoke","connector_id":42}"#, "bad_request", "h"),
        (#"{"v":1,"id":"i","op":"exchange_code","user_id":"u","code":"c","redirect_uri":"r"}"#, "bad_request", "i"),
    ]

    @Test(arguments: malformedRequests)
    func malformedRequestIsAnsweredWithItsCode(payload: String, code: String, id: String?) async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                // A valid request follows on the same connection: an error must not end it.
                let exchange = try await rawExchange(
                    socketPath: socketPath, bytes: frame(payload) + frame(#"{"v":1,"id":"after","op":"ping"}"#))
                #expect(exchange.leftoverBytes == 0)
                #expect(exchange.responses.count == 2)
                let failure = try #require(exchange.responses.first { $0.responseID != "after" })
                #expect(envelopeProblem(failure) == nil)
                #expect(failure.errorCode == code)
                #expect(failure.responseID == id)
                #expect(exchange.responses.contains { $0.responseID == "after" && $0["ok"] as? Bool == true })
            }
        }
    }

    @Test func oversizedFrameIsAnsweredWithFrameTooLargeThenClosed() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                // Default limit 64 KiB: announce one byte more and keep the connection open.
                let header = frame([UInt8](repeating: 0x20, count: 64 * 1024 + 1))
                let exchange = try await rawExchange(socketPath: socketPath, bytes: Array(header.prefix(1000)), halfClose: false)
                #expect(exchange.responses.count == 1)
                #expect(exchange.responses.first?.errorCode == "frame_too_large")
                #expect(exchange.responses.first?["id"] is NSNull)

                // Exactly at the limit is accepted (and answered: it is not JSON).
                let atLimit = try await rawExchange(
                    socketPath: socketPath, bytes: frame([UInt8](repeating: 0x20, count: 64 * 1024)))
                #expect(atLimit.responses.map(\.errorCode) == ["bad_request"])
            }
        }
    }

    @Test func frameLimitIsConfigurable() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath, configure: { $0.maxFrameSize = 1024 }) {
                let padded = #"{"v":1,"id":"big","op":"access_token","connector_id":""# + String(repeating: "x", count: 2000) + #""}"#
                let exchange = try await rawExchange(socketPath: socketPath, bytes: frame(padded), halfClose: false)
                #expect(exchange.responses.map(\.errorCode) == ["frame_too_large"])

                // The client refuses to send such a frame at all.
                try await withClient(socketPath: socketPath, configure: { $0.maxFrameSize = 1024 }) { client in
                    let error = try await #require(throws: BrokerError.self) {
                        try await client.accessToken(connectorID: String(repeating: "x", count: 2000))
                    }
                    #expect(error.code == .frameTooLarge)
                }
            }
        }
    }

    @Test func truncatedFrameIsAnsweredWhenThePeerHalfCloses() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                let whole = frame(#"{"v":1,"id":"t","op":"ping"}"#)
                let exchange = try await rawExchange(
                    socketPath: socketPath, bytes: frame(#"{"v":1,"id":"first","op":"ping"}"#) + whole.dropLast(5))
                #expect(exchange.leftoverBytes == 0)
                #expect(exchange.responses.count == 2)
                #expect(exchange.responses.contains { $0.responseID == "first" && $0["ok"] as? Bool == true })
                #expect(exchange.responses.contains { $0.errorCode == "bad_request" && $0["id"] is NSNull })
            }
        }
    }

    @Test func pipelinedRequestsOnOneConnectionAreAllAnsweredByID() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            // More requests than the per-connection concurrency bound, sent in one write.
            try await withBroker(at: socketPath, configure: { $0.maxConcurrentRequestsPerConnection = 4 }) {
                let bytes = (0..<50).flatMap { frame(#"{"v":1,"id":"p\#($0)","op":"access_token","connector_id":"c\#($0)"}"#) }
                let exchange = try await rawExchange(socketPath: socketPath, bytes: bytes)
                #expect(exchange.responses.count == 50)
                for response in exchange.responses {
                    let id = try #require(response.responseID)
                    #expect(response["access_token"] as? String == "token-for-c\(id.dropFirst())")
                }
            }
        }
    }
}

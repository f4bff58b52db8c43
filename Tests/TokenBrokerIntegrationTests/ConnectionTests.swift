import AlfredCore
import AlfredTestCluster
import Foundation
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker

@Suite(.timeLimit(.minutes(5))) struct ConnectionTests {
    @Test func socketFileIsOwnerOnly() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                let attributes = try FileManager.default.attributesOfItem(atPath: socketPath)
                let mode = try #require(attributes[.posixPermissions] as? Int)
                #expect(mode == 0o600)
            }
            // Stopping the broker removes its socket, so clients see "missing", not a stale file.
            #expect(!FileManager.default.fileExists(atPath: socketPath))
        }
    }

    /// `--socket-group`: the broker gives its own socket to its callers' group, 0660 (issue #32: no
    /// root helper on the path).
    @Test func withACallersGroupTheSocketIsThatGroupsAnd0660() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let group = UInt32(getegid())
            try await withBroker(at: socketPath, configure: { $0.socketGroup = group }) {
                let attributes = try FileManager.default.attributesOfItem(atPath: socketPath)
                #expect(attributes[.posixPermissions] as? Int == 0o660)
                #expect((attributes[.groupOwnerAccountID] as? NSNumber)?.uint32Value == group)
            }
        }
    }

    @Test func peerWhoseUserIsNotAllowedIsDenied() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let someoneElse = PeerCredentials.currentUID &+ 4242
            let handler = FakeTokenLogic()
            try await withBroker(at: socketPath, handler: handler, configure: { $0.allowedUIDs = [someoneElse] }) {
                try await withClient(socketPath: socketPath) { client in
                    let error = try await #require(throws: BrokerError.self) {
                        try await client.accessToken(connectorID: "conn-1")
                    }
                    #expect(error.code == .denied)
                    #expect(!error.retryable)
                }
                let raw = try await rawExchange(
                    socketPath: socketPath, bytes: frame(#"{"v":1,"id":"x","op":"ping"}"#), halfClose: false)
                #expect(raw.responses.count == 1)
                #expect(raw.responses.first?.errorCode == "denied")
                #expect(handler.calls.all.isEmpty)
            }
        }
    }

    /// The API's OS user may turn a consent into a connector and revoke one, never get a token.
    @Test func aConnectOnlyPeerMayExchangeAndRevokeButGetsNoToken() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let handler = FakeTokenLogic()
            try await withBroker(at: socketPath, handler: handler, configure: {
                $0.allowedUIDs = [PeerCredentials.currentUID &+ 4242]
                $0.connectOnlyUIDs = [PeerCredentials.currentUID]
            }) {
                try await withClient(socketPath: socketPath) { client in
                    for refused in [
                        { _ = try await client.accessToken(connectorID: "conn-1") },
                        { _ = try await client.rewrap(connectorID: "conn-1") },
                        { _ = try await client.apnsProviderToken() },
                    ] as [@Sendable () async throws -> Void] {
                        let error = try await #require(throws: BrokerError.self) { try await refused() }
                        #expect(error.code == .denied && !error.retryable)
                    }
                    _ = try await client.exchangeCode(CodeExchange(userID: "user-1", code: Redacted("c"), codeVerifier: Redacted("v"),
                                                                   redirectURI: "r"))
                    try await client.revoke(connectorID: "conn-1")
                }
                #expect(handler.calls.all.map { $0.split(separator: " ").first.map(String.init) ?? "" }.sorted() == ["exchange_code", "revoke"],
                        "\(handler.calls.all)")
            }
        }
    }

    @Test func hundredConcurrentRequestsFromOneClientAreAllAnswered() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                for connections in [1, 3] {
                    // About completeness, not speed: every call gets an answer (within the client's generous limit).
                    try await withClient(socketPath: socketPath, configure: {
                        $0.connectionCount = connections
                        $0.requestTimeout = .seconds(120)
                    }) { client in
                        try await withThrowingTaskGroup(of: (Int, String).self) { group in
                            for index in 0..<100 {
                                group.addTask {
                                    (index, try await client.accessToken(connectorID: "conn-\(index)").token.unsafeValue)
                                }
                            }
                            var answered = Set<Int>()
                            for try await (index, token) in group {
                                #expect(token == "token-for-conn-\(index)")
                                answered.insert(index)
                            }
                            #expect(answered.count == 100)
                        }
                    }
                }
            }
        }
    }

    @Test func brokerDownIsATypedRetryableError() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withClient(socketPath: socketPath) { client in
                let error = try await #require(throws: BrokerError.self) {
                    try await client.accessToken(connectorID: "conn-1")
                }
                #expect(error.code == .brokerUnavailable)
                #expect(error.retryable)
                #expect(error.message.contains("token broker not reachable at \(socketPath)"))
                #expect(error.message.contains("is `alfred-broker` running?"))
            }
        }
    }

    @Test func socketFileWithNobodyListeningIsUnavailable() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/stale.sock"
            // A socket file left by a killed broker: bound, never listening, so connect is refused.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                bytes.copyBytes(from: socketPath.utf8)
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0)
            try await withClient(socketPath: socketPath) { client in
                let error = try await #require(throws: BrokerError.self) { try await client.ping() }
                #expect(error.code == .brokerUnavailable)
                #expect(error.message.contains(socketPath))
            }
        }
    }

    @Test func clientReconnectsAfterTheBrokerRestarts() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withClient(socketPath: socketPath, configure: { $0.connectionCount = 1 }) { client in
                try await withBroker(at: socketPath) {
                    let token = try await client.accessToken(connectorID: "before")
                    #expect(token.token.unsafeValue == "token-for-before")
                }
                let whileDown = try await #require(throws: BrokerError.self) { try await client.ping() }
                #expect(whileDown.code == .brokerUnavailable)

                try await withBroker(at: socketPath) {
                    let token = try await client.accessToken(connectorID: "after")
                    #expect(token.token.unsafeValue == "token-for-after")
                }
                // Restarted again with the old connection never noticed by a failing call in between.
                try await withBroker(at: socketPath) {
                    try await client.ping()
                }
            }
        }
    }

    @Test func slowAnswerTimesOutAndTheConnectionStaysUsable() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let gate = Gate()
            try await withBroker(at: socketPath, handler: FakeTokenLogic(gate: gate)) {
                try await withClient(socketPath: socketPath, configure: { $0.connectionCount = 1 }) { client in
                    let error = try await #require(throws: BrokerError.self) {
                        try await client.accessToken(connectorID: "hang", timeout: .milliseconds(200))
                    }
                    #expect(error.code == .timeout)
                    #expect(error.retryable)
                    gate.open()
                    // The late answer to the timed-out call is dropped; the next call gets its own.
                    #expect(try await client.accessToken(connectorID: "next").token.unsafeValue == "token-for-next")
                }
            }
        }
    }

    @Test func cancellingAWaitingCallerLeavesTheConnectionUsable() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            let (gate, entered) = (Gate(), Gate())
            try await withBroker(at: socketPath, handler: FakeTokenLogic(gate: gate, entered: entered)) {
                try await withClient(socketPath: socketPath, configure: { $0.connectionCount = 1 }) { client in
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            await #expect(throws: CancellationError.self) {
                                try await client.accessToken(connectorID: "hang")
                            }
                        }
                        await entered.wait()  // the request is on the wire and its handler is running
                        group.cancelAll()
                        await group.waitForAll()
                    }
                    try await client.ping()
                    gate.open()
                }
            }
        }
    }
}

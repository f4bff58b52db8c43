import AlfredTestCluster
import Foundation
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker

/// Seeded, reproducible abuse of the socket: every frame is answered or the connection is closed
/// cleanly, the broker never crashes, and it keeps serving afterwards. To replay a failure, run
/// with the seed from the failing expectation.
@Suite(.timeLimit(.minutes(5))) struct RobustnessTests {
    static let seed: UInt64 = 0xA1F7_ED_B40C_E5
    static let framedBatches = 60
    static let framesPerBatch = 50
    static let framingAbuseConnections = 300

    static let templates = [
        #"{"v":1,"id":"a1","op":"access_token","connector_id":"conn-1"}"#,
        #"{"v":1,"id":"a2","op":"exchange_code","user_id":"u1","code":"4/0Ab","code_verifier":"verif","redirect_uri":"https://alfred.invalid/cb"}"#,
        #"{"v":1,"id":"a3","op":"revoke","connector_id":"conn-2"}"#,
        #"{"v":1,"id":"a4","op":"ping"}"#,
    ]

    static let fragments = [
        "{", "}", "[", "]", "\"", ":", ",", "null", "true", "-0", "1e999", "-1e-999", "\\u0000", "\\ud800", "\u{FEFF}",
        "\"v\":2", "\"v\":1", "\"op\":\"ping\"", "\"id\":{}", "\"id\":null", "\"\u{10FFFF}\"", "\\", "\0",
        String(repeating: "[", count: 20_000), String(repeating: "{\"a\":", count: 5_000),
    ]

    @Test func randomAndMutatedFramesAreRejectedCleanlyAndTheBrokerKeepsServing() async throws {
        var random = SeededGenerator(seed: Self.seed)
        try await withTemporaryDirectory { directory in
            let socketPath = "\(directory)/broker.sock"
            try await withBroker(at: socketPath) {
                // Well-framed payloads with garbage inside: exactly one answer per frame.
                for batch in 0..<Self.framedBatches {
                    let payloads = (0..<Self.framesPerBatch).map { _ in Self.payload(using: &random) }
                    let exchange = try await rawExchange(socketPath: socketPath, bytes: payloads.flatMap(frame))
                    #expect(exchange.responses.count == payloads.count, "seed \(Self.seed) batch \(batch)")
                    #expect(exchange.leftoverBytes == 0, "seed \(Self.seed) batch \(batch)")
                    for response in exchange.responses {
                        #expect(envelopeProblem(response) == nil, "seed \(Self.seed) batch \(batch)")
                    }
                }

                // Broken framing: oversized prefixes, frames cut short, raw noise.
                for round in 0..<Self.framingAbuseConnections {
                    let (bytes, expected) = Self.framingAbuse(using: &random)
                    let exchange = try await rawExchange(socketPath: socketPath, bytes: bytes)
                    let context: Comment = "seed \(Self.seed) round \(round)"
                    #expect(exchange.leftoverBytes == 0, context)
                    for response in exchange.responses {
                        #expect(envelopeProblem(response) == nil, context)
                    }
                    if let expected {
                        #expect(exchange.responses.map(\.errorCode) == [expected], context)
                    }
                }

                try await withClient(socketPath: socketPath) { client in
                    try await client.ping()
                    #expect(try await client.accessToken(connectorID: "still-here").token.unsafeValue == "token-for-still-here")
                }
            }
        }
    }

    /// One frame payload: a mutated valid request, random bytes, or odd but well-formed JSON.
    static func payload(using random: inout SeededGenerator) -> [UInt8] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return mutate(Array(templates.randomElement(using: &random)!.utf8), using: &random)
        case 4..<6: return (0..<Int.random(in: 0..<300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 6..<9: return Array(oddRequest(using: &random).utf8)
        default: return mutate(Array(oddRequest(using: &random).utf8), using: &random)
        }
    }

    static func mutate(_ original: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty:
                let index = min(position, bytes.count - 1)
                bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            case 1 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...8, using: &random))
                bytes.removeSubrange(min(position, end)..<end)
            case 2:
                bytes.insert(contentsOf: Array(fragments.randomElement(using: &random)!.utf8), at: position)
            case 3:
                bytes.insert(contentsOf: (0..<Int.random(in: 1...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: position)
            case 4 where !bytes.isEmpty:
                let start = min(position, bytes.count - 1)
                let end = min(bytes.count, start + Int.random(in: 1...16, using: &random))
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    /// Valid JSON objects with wrong types, odd versions, unknown ops and stray fields.
    static func oddRequest(using random: inout SeededGenerator) -> String {
        let versions = ["1", "1", "1", "2", "0", "-1", "1.5", "\"1\"", "null", "99999999999999999999", "[]", "{}"]
        let ids = ["\"x\"", "\"\"", "7", "null", "{}", "[\"x\"]", "\"\(String(repeating: "i", count: 500))\"", "\"\\u0000\""]
        let ops = [
            "\"access_token\"", "\"exchange_code\"", "\"revoke\"", "\"ping\"", "\"PING\"", "\"\"", "\"access_token\\u0000\"",
            "1", "null", "\"teleport\"",
        ]
        let values = ["\"conn-9\"", "\"\"", "0", "null", "true", "[]", "{\"nested\":[1,2,{}]}", "\"\(String(repeating: "z", count: 2_000))\""]
        let fields = ["connector_id", "user_id", "code", "code_verifier", "redirect_uri", "extra", "v", "id", "op"]
        var members: [String] = []
        if Int.random(in: 0..<8, using: &random) > 0 { members.append("\"v\":\(versions.randomElement(using: &random)!)") }
        if Int.random(in: 0..<8, using: &random) > 0 { members.append("\"id\":\(ids.randomElement(using: &random)!)") }
        if Int.random(in: 0..<8, using: &random) > 0 { members.append("\"op\":\(ops.randomElement(using: &random)!)") }
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            members.append("\"\(fields.randomElement(using: &random)!)\":\(values.randomElement(using: &random)!)")
        }
        members.shuffle(using: &random)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Bytes that break the framing itself, and the single error expected back (nil: any whole frames).
    static func framingAbuse(using random: inout SeededGenerator) -> ([UInt8], String?) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let length = UInt32.random(in: UInt32(64 * 1024 + 1)...UInt32.max, using: &random)
            let prefix = [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
            return (prefix + (0..<Int.random(in: 0..<100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, "frame_too_large")
        case 1:
            let whole = frame(templates.randomElement(using: &random)!)
            return (Array(whole.prefix(Int.random(in: 1..<whole.count, using: &random))), "bad_request")
        default:
            return ((0..<Int.random(in: 1...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, nil)
        }
    }
}

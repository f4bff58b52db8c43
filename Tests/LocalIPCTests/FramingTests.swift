import NIOCore
import NIOEmbedded
import Testing
@testable import LocalIPC

/// The length-prefixed framing of the broker's, key service's and attestor's sockets, on an embedded
/// channel: bytes in as a peer sends them, frames out. No socket.
@Suite(.timeLimit(.minutes(5))) struct FramingTests {
    static func channel(maxFrameSize: Int = 64) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameSize: maxFrameSize)))
        return channel
    }

    static func frame(_ payload: String) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(payload.utf8.count))
        buffer.writeString(payload)
        return buffer
    }

    static func payloads(_ channel: EmbeddedChannel) throws -> [String] {
        var frames: [String] = []
        while let frame = try channel.readInbound(as: InboundFrame.self) {
            switch frame {
            case .payload(let bytes): frames.append(String(buffer: bytes))
            case .tooLarge: frames.append("<too large>")
            case .truncated: frames.append("<truncated>")
            }
        }
        return frames
    }

    @Test func framesSplitAcrossReadsAndSharingOneAreEachDeliveredWhole() throws {
        let channel = try Self.channel()
        var both = Self.frame(#"{"op":"ping"}"#)
        var second = Self.frame(#"{"op":"revoke"}"#)
        both.writeBuffer(&second)
        // One byte at a time: nothing until a frame is complete.
        for index in 0..<both.readableBytes {
            try channel.writeInbound(both.getSlice(at: index, length: 1)!)
        }
        #expect(try Self.payloads(channel) == [#"{"op":"ping"}"#, #"{"op":"revoke"}"#])
        #expect(try channel.finish().isClean)
    }

    @Test func anOversizedPrefixIsReportedAtOnceAndNothingAfterItIsDecoded() throws {
        let channel = try Self.channel(maxFrameSize: 8)
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(1 << 30))  // a gigabyte announced: refused before any of it is read
        try channel.writeInbound(buffer)
        #expect(try Self.payloads(channel) == ["<too large>"])
        // The stream cannot be resynchronised: even a well-formed frame after it is dropped.
        try channel.writeInbound(Self.frame("{}"))
        #expect(try Self.payloads(channel).isEmpty)
        _ = try channel.finish()
    }

    @Test func aPeerThatClosesMidFrameLeavesATruncatedFrame() throws {
        let channel = try Self.channel()
        let whole = Self.frame(#"{"op":"ping"}"#)
        try channel.writeInbound(whole.getSlice(at: 0, length: 6)!)
        #expect(try Self.payloads(channel).isEmpty)
        _ = try channel.finish()
        #expect(try Self.payloads(channel) == ["<truncated>"])
    }

    @Test func theEncoderWritesWhatTheDecoderReadsAndRefusesWhatIsTooLarge() throws {
        struct Message: Codable, Equatable { var op: String }
        let frame = try #require(try FrameEncoder.frame(Message(op: "ping"), maxFrameSize: 64))
        let channel = try Self.channel()
        try channel.writeInbound(frame)
        #expect(try Self.payloads(channel) == [#"{"op":"ping"}"#])
        #expect(try FrameEncoder.frame(Message(op: String(repeating: "x", count: 100)), maxFrameSize: 64) == nil)
        _ = try channel.finish()
    }
}

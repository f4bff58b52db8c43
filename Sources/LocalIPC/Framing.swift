import Foundation
import NIOCore

/// One inbound unit after length-prefix framing.
package enum InboundFrame: Sendable {
    /// A complete frame's payload (the JSON bytes, without the length prefix).
    case payload(ByteBuffer)
    /// The length prefix announced more than the limit; nothing after it is decoded.
    case tooLarge
    /// The peer closed its side in the middle of a frame.
    case truncated
}

/// Splits a byte stream into frames: a 4-byte big-endian length, then that many payload bytes.
///
/// An oversized length is reported as soon as the prefix arrives, so the broker never buffers
/// more than `maxFrameSize` for one frame. After that the stream cannot be resynchronised (the
/// next prefix position is unknown), so everything that follows is discarded.
package struct FrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = InboundFrame

    package static let prefixLength = 4

    package let maxFrameSize: Int
    private var desynchronised = false

    package init(maxFrameSize: Int) {
        self.maxFrameSize = maxFrameSize
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if desynchronised {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length <= maxFrameSize else {
            desynchronised = true
            buffer.moveReaderIndex(to: buffer.writerIndex)
            context.fireChannelRead(wrapInboundOut(.tooLarge))
            return .needMoreData
        }
        guard buffer.readableBytes >= Self.prefixLength + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: Self.prefixLength)
        let payload = buffer.readSlice(length: Int(length))!
        context.fireChannelRead(wrapInboundOut(.payload(payload)))
        return .continue
    }

    package mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        if !desynchronised, buffer.readableBytes > 0 {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            context.fireChannelRead(wrapInboundOut(.truncated))
        }
        return .needMoreData
    }
}

/// Writes messages as frames.
package enum FrameEncoder {
    /// Returns nil when the encoded message would exceed `maxFrameSize`.
    package static func frame(_ message: some Encodable, maxFrameSize: Int) throws -> ByteBuffer? {
        // A fresh encoder per message: cheap, and nothing mutable is shared between tasks.
        let payload = try JSONEncoder().encode(message)
        guard payload.count <= maxFrameSize else { return nil }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(FrameDecoder.prefixLength + payload.count)
        buffer.writeInteger(UInt32(payload.count))
        buffer.writeBytes(payload)
        return buffer
    }
}

import Foundation

/// A job payload sealed with the host data key. In the row it is JSON `{"sealed":"<base64>"}` so the
/// queue's decoding (and its poison-payload handling) stays the same for every kind.
public struct SealedPayload: Codable, Sendable {
    public let sealed: Data
    public init(_ bytes: [UInt8]) { sealed = Data(bytes) }

    /// The row's payload bytes for `value`, sealed for `purpose` (a push's text is `.notification`).
    public static func make<T: Encodable>(_ value: T, sealer: HostSealer, userID: UUID?,
                                          purpose: HostSealer.Purpose = .jobPayload) throws -> [UInt8] {
        let bytes = try sealer.seal(json: value, purpose: purpose, userID: userID)
        return Array(try JSONEncoder().encode(SealedPayload(bytes)))
    }

    public func open<T: Decodable>(_ type: T.Type, sealer: HostSealer, userID: UUID?,
                                   purpose: HostSealer.Purpose = .jobPayload) throws -> T {
        try sealer.open(json: type, from: Array(sealed), purpose: purpose, userID: userID)
    }
}

/// A secret or a piece of personal data. Printing it, interpolating it or dumping it shows `<redacted>`;
/// the value is reachable only through `unsafeValue`, which is easy to grep for.
public struct Redacted<Value: Sendable>: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let unsafeValue: Value
    public init(_ value: Value) { unsafeValue = value }
    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}

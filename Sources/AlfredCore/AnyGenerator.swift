/// A type-erased random number generator, so a component that takes its jitter source as a
/// dependency (tests pass a seeded one) need not be generic over it.
public struct AnyGenerator: RandomNumberGenerator, Sendable {
    private var base: any RandomNumberGenerator & Sendable
    public init(_ base: some RandomNumberGenerator & Sendable) { self.base = base }
    public mutating func next() -> UInt64 { base.next() }
}

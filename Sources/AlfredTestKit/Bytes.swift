extension Array where Element == UInt8 {
    /// Whether `bytes` occur in it, contiguously: a secret or a plaintext that must not appear in
    /// a sealed box, a ciphertext or a wire frame.
    public func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

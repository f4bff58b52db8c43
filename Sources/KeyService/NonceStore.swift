import Attestation
import KeyServiceClient
import Foundation
import Synchronization

/// The key service's outstanding challenges. Each nonce is 32 random bytes, valid for `lifetime`
/// and usable once: it is what proves evidence was made just now, for this key service.
///
/// The store is bounded: beyond `capacity` outstanding nonces the oldest is forgotten (its holder
/// gets `nonce_unknown_or_replayed` and asks again), so a caller asking for nonces in a loop costs
/// memory proportional to `capacity`, not to its patience.
final class NonceStore: Sendable {
    let lifetime: TimeInterval
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var expiries: [Data: Date] = [:]
        /// Nonces in issue order; since every nonce lives equally long this is also expiry order.
        /// Consumed nonces stay here until they reach the front (lazy deletion).
        var order: [Data] = []
        var head = 0

        mutating func dropFront() {
            head += 1
            if head > 1024 && head * 2 > order.count {  // compact once most of the array is dead
                order.removeFirst(head)
                head = 0
            }
        }
    }

    init(lifetime: TimeInterval = 60, capacity: Int = 10_000) {
        precondition(capacity > 0)
        self.lifetime = lifetime
        self.capacity = capacity
    }

    func issue(now: Date) -> [UInt8] {
        // Not injected on purpose: a nonce must be unpredictable, so only the system CSPRNG will do.
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        state.withLock { state in
            Self.purge(&state, now: now)
            while state.expiries.count >= capacity, state.head < state.order.count {
                state.expiries[state.order[state.head]] = nil
                state.dropFront()
            }
            state.expiries[Data(nonce)] = now.addingTimeInterval(lifetime)
            state.order.append(Data(nonce))
        }
        return nonce
    }

    /// True once for a nonce issued here that has not expired; false for anything else.
    func consume(_ nonce: [UInt8], now: Date) -> Bool {
        state.withLock { state in
            Self.purge(&state, now: now)
            guard let expiry = state.expiries.removeValue(forKey: Data(nonce)) else { return false }
            return now < expiry
        }
    }

    var outstanding: Int { state.withLock { $0.expiries.count } }

    /// Forgets expired nonces and consumed ones that reached the front.
    private static func purge(_ state: inout State, now: Date) {
        while state.head < state.order.count {
            let nonce = state.order[state.head]
            if let expiry = state.expiries[nonce], now < expiry { break }
            state.expiries[nonce] = nil
            state.dropFront()
        }
    }
}

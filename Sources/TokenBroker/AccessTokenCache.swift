import BrokerClient
import LocalIPC
import AlfredCore
import Foundation

/// Access tokens by connector, kept until shortly before they expire. Concurrent misses for one
/// connector share a single refresh: the first caller refreshes, the others wait for its result.
///
/// A forced refresh (a worker's token got a 401 from Google) drops the cached token, unless it was
/// minted within `forcedRefreshFloor`: then another caller has just replaced the token that failed,
/// and a burst of 401s costs Google one refresh, not one per caller.
///
/// Bounded: at `capacity` entries, storing another first drops the expired ones, then the oldest.
/// (Whether a connector may still have a token is the broker's check, on every request.)
actor AccessTokenCache {
    private struct Entry { let token: AccessToken; let storedAt: Date }
    private var tokens: [UUID: Entry] = [:]
    private var waiting: [UUID: [CheckedContinuation<AccessToken, any Error>]] = [:]
    /// Tokens are handed out only while they have at least this long to live.
    private let margin: TimeInterval
    private let forcedRefreshFloor: TimeInterval
    private let now: @Sendable () -> Date
    let capacity: Int

    init(margin: Duration = .seconds(120), forcedRefreshFloor: Duration = .seconds(5), capacity: Int = 50_000,
         now: @escaping @Sendable () -> Date = Date.init) {
        self.margin = margin.seconds
        self.forcedRefreshFloor = forcedRefreshFloor.seconds
        self.capacity = max(1, capacity)
        self.now = now
    }

    var count: Int { tokens.count }

    private func keep(_ token: AccessToken, for connector: UUID) {
        if tokens[connector] == nil, tokens.count >= capacity {
            let at = now()
            tokens = tokens.filter { $0.value.token.expiresAt.timeIntervalSince(at) > margin }
            while tokens.count >= capacity, let oldest = tokens.min(by: { $0.value.storedAt < $1.value.storedAt })?.key {
                tokens[oldest] = nil
            }
        }
        tokens[connector] = Entry(token: token, storedAt: now())
    }

    func token(for connector: UUID, force: Bool = false,
               refresh: @Sendable () async throws -> AccessToken) async throws -> AccessToken {
        if force, let cached = tokens[connector], now().timeIntervalSince(cached.storedAt) >= forcedRefreshFloor {
            tokens[connector] = nil
        }
        if let cached = tokens[connector], cached.token.expiresAt.timeIntervalSince(now()) > margin { return cached.token }
        if waiting[connector] != nil {
            return try await withCheckedThrowingContinuation { waiting[connector]!.append($0) }
        }
        waiting[connector] = []
        let result: Result<AccessToken, any Error>
        do {
            result = .success(try await refresh())
        } catch {
            result = .failure(error)
        }
        if case .success(let token) = result { keep(token, for: connector) }
        for waiter in waiting.removeValue(forKey: connector) ?? [] { waiter.resume(with: result) }
        return try result.get()
    }

    func store(_ token: AccessToken, for connector: UUID) { keep(token, for: connector) }

    func forget(_ connector: UUID) { tokens[connector] = nil }
}

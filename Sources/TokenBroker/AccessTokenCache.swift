import AlfredCore
import Foundation

/// Access tokens by connector, kept until shortly before they expire. Concurrent misses for one
/// connector share a single refresh: the first caller refreshes, the others wait for its result.
actor AccessTokenCache {
    private var tokens: [UUID: AccessToken] = [:]
    private var waiting: [UUID: [CheckedContinuation<AccessToken, any Error>]] = [:]
    /// Tokens are handed out only while they have at least this long to live.
    private let margin: TimeInterval
    private let now: @Sendable () -> Date

    init(margin: Duration = .seconds(120), now: @escaping @Sendable () -> Date = Date.init) {
        self.margin = margin.seconds
        self.now = now
    }

    func token(for connector: UUID, refresh: @Sendable () async throws -> AccessToken) async throws -> AccessToken {
        if let cached = tokens[connector], cached.expiresAt.timeIntervalSince(now()) > margin { return cached }
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
        if case .success(let token) = result { tokens[connector] = token }
        for waiter in waiting.removeValue(forKey: connector) ?? [] { waiter.resume(with: result) }
        return try result.get()
    }

    func store(_ token: AccessToken, for connector: UUID) { tokens[connector] = token }

    func forget(_ connector: UUID) { tokens[connector] = nil }
}

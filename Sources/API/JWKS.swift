import AlfredCore
import Crypto
import CryptoExtras
import Foundation

/// A published key set (JWKS: Apple's, Google's), by `kid`. Only RSA signing keys are kept.
struct JWKSet: Sendable {
    let keys: [String: _RSA.Signing.PublicKey]

    init(keys: [String: _RSA.Signing.PublicKey]) { self.keys = keys }

    /// Parses `{"keys": [{"kty": "RSA", "kid", "n", "e", ...}]}`; keys of other types are skipped.
    init(jwks: [UInt8]) throws {
        struct Document: Decodable { let keys: [Key] }
        struct Key: Decodable { let kty: String; let kid: String?; let use: String?; let alg: String?; let n: String?; let e: String? }
        let document: Document
        do { document = try JSONDecoder().decode(Document.self, from: Data(jwks)) } catch {
            throw JWKSError("the key set is not a JWKS document")
        }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for key in document.keys where key.kty == "RSA" && (key.use ?? "sig") == "sig" && (key.alg ?? "RS256") == "RS256" {
            guard let kid = key.kid, let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                  let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            keys[kid] = publicKey
        }
        self.keys = keys
    }
}

struct JWKSError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where a key set comes from (Apple's `https://appleid.apple.com/auth/keys`, Google's
/// `https://www.googleapis.com/oauth2/v3/certs`, or a stand-in's).
protocol JWKSource: Sendable {
    func fetchKeys() async throws -> JWKSet
}

/// A key set, fetched on first use and kept. A token naming a key not in the set refetches it
/// (issuers rotate keys), but at most once per `refetchInterval`, so tokens with made-up key ids
/// cannot make us hammer the issuer; concurrent misses share one fetch. The set is also refreshed when
/// older than `maxAge`, and retried after a failed fetch no sooner than `refetchInterval`.
actor JWKSCache<C: Clock<Duration>> {
    private let source: any JWKSource
    private let clock: C
    private let refetchInterval: Duration
    private let maxAge: Duration
    private var current: (keys: JWKSet, fetchedAt: C.Instant)?
    /// The last fetch caused by an unknown key id or a failure (the ones that are rate limited).
    private var lastLimited: C.Instant?
    private var inFlight: Task<JWKSet, any Error>?
    /// Fetches made so far (tests read it).
    private(set) var fetches = 0

    init(source: any JWKSource, clock: C, refetchInterval: Duration = .seconds(60), maxAge: Duration = .seconds(24 * 3600)) {
        self.source = source
        self.clock = clock
        self.refetchInterval = refetchInterval
        self.maxAge = maxAge
    }

    /// The key with this id, or nil when the issuer does not publish it. Throws when the keys cannot
    /// be had (none fetched yet and the last try failed moments ago, or this fetch failed).
    func key(_ kid: String) async throws -> _RSA.Signing.PublicKey? {
        if let inFlight { return try await inFlight.value.keys[kid] }
        let now = clock.now
        let limited = lastLimited.map { $0.duration(to: now) < refetchInterval } ?? false
        if let current, current.fetchedAt.duration(to: now) < maxAge {
            if let key = current.keys.keys[kid] { return key }
            if limited { return nil }
            lastLimited = now  // a miss: refetch, and not again within the interval
        } else if current == nil, limited {
            throw JWKSError("the signing keys could not be fetched; try again shortly")
        }
        return try await fetch().keys[kid]
    }

    private func fetch() async throws -> JWKSet {
        fetches += 1
        let source = self.source
        let task = Task { try await source.fetchKeys() }
        inFlight = task
        defer { inFlight = nil }
        do {
            let keys = try await task.value
            current = (keys, clock.now)
            return keys
        } catch {
            lastLimited = clock.now
            throw error
        }
    }
}

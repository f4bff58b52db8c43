import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A local fake of Sign in with Apple's server side (external-apis §5) on a real loopback socket:
/// it publishes a JWKS at `/auth/keys`, as `https://appleid.apple.com/auth/keys` does, and mints the
/// identity tokens the iOS app would get from Apple, signed RS256 with the newest published key.
///
/// ```swift
/// let apple = AppleStandIn()
/// group.addTask { try await apple.run() }                  // or put it in a ServiceGroup
/// let keysURL = try await apple.keysURL()                    // replaces Apple's JWKS URL
/// let token = try apple.identityToken(.init(audience: "com.example.alfred", nonce: rawNonce))
/// apple.rotateKeys()                                         // a new key signs; the oldest is dropped
/// ```
///
/// Two keys are published at any time, newest first. Control routes under `/_fake/` (see
/// `AppleStandIn+Routes.swift`) do the same for processes that cannot call Swift.
public final class AppleStandIn: Service, Sendable {
    /// How many keys `/auth/keys` lists; rotation drops the oldest beyond this.
    public static let publishedKeyCount = 2

    let configuration: Configuration
    /// Published keys, newest (the signing key) first.
    let keys: Mutex<[RSASigningKey]>
    let fetches = KeySetFetches()
    let faults = FaultPlan()
    let recorder = RequestRecorder()
    let boundPort = BoundPort()
    let logger: Logger
    /// Decides `iat` and `exp` of minted tokens; advance it instead of waiting.
    public let clock: StandInClock
    let latencyClock: any Clock<Duration>

    /// Makes the two published keys (RSA-2048 generation: tens of milliseconds of CPU each).
    /// - Parameter latencyClock: what latency faults sleep on.
    public init(configuration: Configuration = Configuration(), clock: StandInClock = StandInClock(),
                latencyClock: any Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "alfred.standin.apple")) {
        self.configuration = configuration
        self.clock = clock
        self.latencyClock = latencyClock
        self.logger = logger
        keys = Mutex((0..<Self.publishedKeyCount).map { _ in RSASigningKey.generate() })
    }

    // MARK: Lifecycle

    /// Binds `configuration.host:port` and serves until cancelled or gracefully shut down.
    public func run() async throws {
        boundPort.rearm()
        let router = Router()
        router.add(middleware: KeySetFetchCounter(fetches: fetches))
        router.add(middleware: TrafficMiddleware(faults: faults, recorder: recorder, clock: clock,
                                                latencyClock: latencyClock, logger: logger))
        addRoutes(to: router)
        try await boundPort.serve(router, host: configuration.host, port: configuration.port, name: "Apple stand-in", logger: logger)
    }

    /// The bound port, once `run()` is listening (waits for it; cancellable). Throws if it failed or stopped.
    public func port() async throws -> Int {
        try await boundPort.wait()
    }

    /// `http://127.0.0.1:<port>`: what replaces `https://appleid.apple.com`.
    public func baseURL() async throws -> String {
        let host = configuration.host
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(try await port())"
    }

    /// `<base>/auth/keys`: what replaces `https://appleid.apple.com/auth/keys` (`APPLE_KEYS_URL`).
    public func keysURL() async throws -> String { try await baseURL() + Self.keysPath }

    static let keysPath = "/auth/keys"

    // MARK: Keys

    /// The `kid` that signs minted tokens (the newest key).
    public var signingKeyID: String { keys.withLock { $0[0].id } }

    /// The `kid`s `/auth/keys` lists, newest first.
    public var publishedKeyIDs: [String] { keys.withLock { $0.map(\.id) } }

    /// How many times `/auth/keys` was requested (faulted requests included: a client's failed
    /// fetch counts as a fetch), so a test can see when a verifier refetches.
    public var keySetFetches: Int { fetches.count }

    /// Apple rotates: a new key signs from now on and is listed first; the oldest published key is
    /// dropped, so tokens it signed stop verifying once a client refetches. Returns the new `kid`.
    /// Generates an RSA-2048 key on the calling thread (tens of milliseconds of CPU).
    @discardableResult
    public func rotateKeys() -> String {
        let key = RSASigningKey.generate()
        keys.withLock { keys in
            keys.insert(key, at: 0)
            keys.removeLast(max(0, keys.count - Self.publishedKeyCount))
        }
        logger.info("apple stand-in rotated its signing key", metadata: ["alfred.standin.kid": "\(key.id)"])
        return key.id
    }

    // MARK: Control (the Swift side of /_fake/...)

    /// Activates a fault rule (e.g. `/auth/keys` answering 503); returns its id for `removeFault(id:)`.
    @discardableResult
    public func injectFault(_ rule: FaultRule) throws(StandInError) -> String { try faults.add(rule) }

    @discardableResult
    public func removeFault(id: String) -> Bool { faults.remove(id: id) }

    public func removeAllFaults() { faults.removeAll() }

    /// Requests to `/auth/keys` served so far, oldest first. Control-plane calls are not recorded.
    public func recordedRequests() -> [RecordedRequest] { recorder.all }

    public func clearRecordedRequests() { recorder.removeAll() }

    /// Moves the fake clock forward: tokens minted later are issued later.
    public func advanceClock(bySeconds seconds: TimeInterval) { clock.advance(bySeconds: seconds) }
}

/// How many times the key set was requested.
final class KeySetFetches: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func increment() { value.withLock { $0 += 1 } }
}

/// Counts requests for the key set before faults apply, so a fetch answered by a fault still counts.
struct KeySetFetchCounter: RouterMiddleware {
    typealias Context = BasicRequestContext
    let fetches: KeySetFetches

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get && request.uri.path == AppleStandIn.keysPath { fetches.increment() }
        return try await next(request, context)
    }
}

import Crypto
import Foundation

/// Everything the APNs stand-in remembers between requests: the device registry, the provider
/// tokens it has seen, per-device push times, pending faults and the records. Pure state; the
/// stand-in holds it in a Mutex and does the I/O around it.
struct APNsLedger: Sendable {
    struct Device: Sendable {
        var environment: APNsStandIn.Environment
        var topic: String
        /// Set by `unregister`: later pushes get 410 with this time.
        var unregisteredAt: Date?
    }

    /// The answer to a request that passed every stateless check.
    struct Decision: Sendable {
        enum Outcome: Sendable {
            case accepted
            case rejected(APNsRejection)
            case reset
            /// GOAWAY(`lastStreamID`) on the push's connection; `accepted` if its stream is at or
            /// below it (a later stream was processed first).
            case goAway(lastStreamID: Int32, accepted: Bool)
            /// Its stream is above its connection's GOAWAY: not processed, never answered.
            case unprocessed
        }

        var outcome: Outcome
        /// Injected latency to wait before answering.
        var delay: Duration?
    }

    static let tokenWindow: TimeInterval = 20 * 60

    var devices: [String: Device] = [:]
    /// Provider tokens (by SHA-256, never kept in the clear) that passed verification, with when
    /// first seen; forgotten after a token's lifetime, when it could no longer be used anyway.
    var tokensFirstSeen: [SHA256Digest: Date] = [:]
    /// Every distinct bearer value presented on /3/device.
    var presentedTokens: Set<SHA256Digest> = []
    var pushTimes: [String: [Date]] = [:]
    var faults: [APNsFault] = []
    var deliveries: BoundedLog<APNsDelivery>
    var requests: BoundedLog<APNsRequestRecord>
    /// 200s whose END_STREAM could not be written: the client reset the stream first.
    var abandonedAnswers = 0
    /// Whether pushes note their HTTP/2 stream (from the first `goAway` fault on).
    var tracksStreams = false
    /// Per HTTP/2 connection (tracked streams only).
    var connections: [ObjectIdentifier: ConnectionStreams] = [:]
    var goAwaysSent = 0
    /// Pushes not processed because of a GOAWAY (at or above its last stream id's limit).
    var droppedByGoAway = 0

    init(recordCapacity: Int) {
        deliveries = BoundedLog(capacity: recordCapacity)
        requests = BoundedLog(capacity: recordCapacity)
    }

    /// Admits a verified provider token, or throws 429 `TooManyProviderTokenUpdates` when it would
    /// be more than `maxChanges` distinct tokens first seen within 20 minutes.
    mutating func admit(token: String, now: Date, maxChanges: Int) throws(APNsRejection) {
        let digest = SHA256.hash(data: Data(token.utf8))
        tokensFirstSeen = tokensFirstSeen.filter { now.timeIntervalSince($0.value) < ProviderTokenCheck.lifetime }
        guard tokensFirstSeen[digest] == nil else { return }
        let recent = tokensFirstSeen.values.filter { now.timeIntervalSince($0) < Self.tokenWindow }.count
        guard recent < maxChanges else { throw APNsRejection(status: 429, reason: "TooManyProviderTokenUpdates") }
        tokensFirstSeen[digest] = now
    }

    mutating func notePresented(token: String) {
        presentedTokens.insert(SHA256.hash(data: Data(token.utf8)))
    }

    /// The device registry, the per-device limit, then faults: the last stage of a push. An
    /// accepted push (also one only delayed by a fault) is added to the deliveries here.
    mutating func decide(_ push: APNsDelivery, stream: APNsStream? = nil, configuration: APNsStandIn.Configuration) -> Decision {
        if let stream, let last = connections[stream.connection]?.goAwayLast, stream.id > last {
            droppedByGoAway += 1
            return Decision(outcome: .unprocessed)
        }
        let token = push.deviceToken
        guard let device = devices[token], device.environment == configuration.environment else {
            return Decision(outcome: .rejected(.badRequest("BadDeviceToken")))
        }
        guard device.topic == configuration.topic else {
            return Decision(outcome: .rejected(.badRequest("DeviceTokenNotForTopic")))
        }
        if let at = device.unregisteredAt {
            let timestamp = Int64((at.millisecondsSince1970).rounded(.down))
            return Decision(outcome: .rejected(APNsRejection(status: 410, reason: "Unregistered", timestamp: timestamp)))
        }
        let now = push.receivedAt
        if let limit = configuration.perDeviceLimit {
            let recent = (pushTimes[token] ?? []).filter { now.timeIntervalSince($0) < limit.window.timeInterval }
            pushTimes[token] = recent
            if recent.count >= limit.count {
                return Decision(outcome: .rejected(APNsRejection(status: 429, reason: "TooManyRequests")))
            }
        }
        let fault = takeFault(for: token)
        /// The device gets it (and it counts against the per-device limit).
        func accept() {
            if configuration.perDeviceLimit != nil { pushTimes[token, default: []].append(now) }
            deliveries.append(push)
            if let stream { connections[stream.connection, default: ConnectionStreams()].accepted(stream.id) }
        }
        if let fault, fault.goAway, let stream {
            let last = max(connections[stream.connection]?.highestAccepted ?? 0, stream.id - 2)
            connections[stream.connection, default: ConnectionStreams()].goAwayLast = last
            goAwaysSent += 1
            if stream.id <= last { accept() } else { droppedByGoAway += 1 }
            return Decision(outcome: .goAway(lastStreamID: last, accepted: stream.id <= last))
        }
        if let fault, fault.resetConnection {
            if fault.acceptBeforeReset { accept() }  // Apple had it; only the answer is lost
            return Decision(outcome: .reset, delay: fault.latency)
        }
        if let fault, fault.status != 200 {
            let rejection = APNsRejection(status: fault.status, reason: fault.reason,
                                          retryAfterSeconds: fault.retryAfterSeconds)
            return Decision(outcome: .rejected(rejection), delay: fault.latency)
        }
        accept()
        return Decision(outcome: .accepted, delay: fault?.latency)
    }

    /// What one HTTP/2 connection's streams came to: the highest accepted, and the last stream id
    /// of its GOAWAY once it sent one.
    struct ConnectionStreams: Sendable {
        var highestAccepted: Int32 = 0
        var goAwayLast: Int32?

        mutating func accepted(_ id: Int32) { highestAccepted = max(highestAccepted, id) }
    }

    /// Which HTTP/2 stream of which connection a push came on.
    struct APNsStream: Sendable {
        var connection: ObjectIdentifier
        var id: Int32
    }

    /// The first fault for `token` (or for any token), with one use consumed.
    private mutating func takeFault(for token: String) -> APNsFault? {
        guard let index = faults.firstIndex(where: { $0.deviceToken == nil || $0.deviceToken == token }) else { return nil }
        let fault = faults[index]
        if fault.count <= 1 { faults.remove(at: index) } else { faults[index].count -= 1 }
        return fault
    }
}

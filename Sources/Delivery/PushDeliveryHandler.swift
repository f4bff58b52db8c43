import AlfredCore
import APNs
import Foundation
import JobQueue
import Metrics
import Sealing
import Synchronization

/// Sends one APNs push; `APNsClient` in production, any real HTTP/2 peer in tests.
public protocol PushSender: Sendable {
    func send(_ request: APNsRequest) async throws -> APNsResponse
}

extension APNsClient: PushSender {}

/// `push.deliver`: one notification to every active device of its user, once.
///
/// Shown once per idempotency key, per device, and never lost to a dropped connection:
/// - the ledger row (`notifications`) was written with the job, so a second enqueue of the key is a
///   no-op;
/// - every copy of a notification carries the same `apns-collapse-id` (the key), and the device shows
///   copies with one collapse id as one notification. So a push left in doubt — the connection dropped
///   after the request went out, or a worker died between committing its `sending` mark and recording
///   the answer — is sent again rather than given up: at worst APNs gets it twice and the user sees it
///   once. A push that never left (connect failure, REFUSED_STREAM, streams above a GOAWAY's last id)
///   is simply sent again;
/// - an in-doubt exchange is resent at once (twice at most), then with the queue's backoff until the
///   deadline; a push still in doubt when its attempts run out is recorded `unconfirmed`;
/// - outcomes, device retirements and the notification's final state commit together, and the final
///   state deletes the sealed text from the job.
///
/// The notification's deadline (the meeting start, say) is `apns-expiration` and the end of retrying:
/// 429 and 5xx retry with the queue's backoff until then, and a run that starts after it records
/// `expired`. Reminder lateness (first APNs 200 minus the scheduled time) is the SLI.
public struct PushDeliveryHandler: JobHandler {
    /// The sealed text; absent once the notification is finished.
    public struct Payload: Decodable, Sendable { public var sealed: Data? }

    public let kind = DeliveryKind.pushDeliver
    /// A worker with `claimAhead` starts a push early: its ledger marks, text and device tokens are
    /// ready when it is due, and what is left at that instant is the APNs request and its record.
    public var preparesAhead: Bool { true }
    let store: any DeliveryStore
    let sender: any PushSender
    let sealer: HostSealer
    let now: @Sendable () -> Date
    /// Requests in flight per notification (a user's devices).
    let parallelism = 4
    /// Each finished notification appends one `DELIVERY` audit event (kind, device count, outcome),
    /// in the statement that records its final state.
    let auditing: Bool
    /// When each APNs environment last accepted a push from this worker.
    let environments = EnvironmentHealth()
    /// APNs requests of this worker in flight at once (a burst waits here, not in the HTTP client).
    let permits: SendPermits
    let metrics: DeliveryMetrics

    public init(store: any DeliveryStore, sender: any PushSender, sealer: HostSealer, auditing: Bool = false,
                maxRequestsInFlight: Int = 256, now: @escaping @Sendable () -> Date = Date.init,
                metrics: any MetricsFactory = MetricsSystem.factory) {
        self.store = store; self.sender = sender; self.sealer = sealer; self.auditing = auditing; self.now = now
        self.permits = SendPermits(limit: maxRequestsInFlight)
        self.metrics = DeliveryMetrics(factory: metrics)
    }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        guard let plan = try await store.beginDelivery(jobID: context.id.uuid) else {
            context.logger.info("push has no ledger row (user deleted or ledger pruned); nothing to send")
            return .done
        }
        guard plan.state == .pending else {
            // Finished by a run whose completion was lost: make sure the text is gone, send nothing.
            _ = try await store.recordSends(key: plan.idempotencyKey, jobID: context.id.uuid, outcomes: [], finish: plan.state, audit: nil)
            return .done
        }
        var previous = plan.sends
        // Claimed now, or left `sending` by a run that died mid-request (maybe delivered: resent under
        // the same collapse id, so the device still shows it once).
        let todo = plan.pastDeadline ? [] : plan.devices.filter { plan.claimed[$0.id] != nil || plan.sends[$0.id] == .sending }
        // Past the deadline, a mark left `sending` stays in doubt for good.
        let inDoubt = plan.pastDeadline
            ? plan.devices.filter { plan.sends[$0.id] == .sending }.map { SendOutcome(deviceID: $0.id, result: .unconfirmed) } : []
        for outcome in inDoubt { previous[outcome.deviceID] = .unconfirmed }

        if todo.isEmpty {
            // Nothing claimed: the deadline passed (by the database's clock, which decided), every
            // device has an outcome already, or there is no device.
            if !plan.pastDeadline, plan.devices.contains(where: { plan.sends[$0.id] == nil }) {
                // Unrecorded devices that Begin did not claim: a run that lost its lease is still
                // marking them. Let it finish rather than finishing the notification under it.
                throw JobError.snooze(.seconds(1), reason: "another run of this push is in flight")
            }
            return try await finish(plan, context, inDoubt, previous: previous, content: nil, expired: plan.pastDeadline)
        }
        guard let sealed = payload.sealed,
              let content = try? SealedPayload(Array(sealed)).open(PushContent.self, sealer: sealer, userID: plan.userID, purpose: .notification)
        else {
            let refused = todo.map { SendOutcome(deviceID: $0.id, result: .rejected(reason: "push text does not open")) }
            _ = try await store.recordSends(key: plan.idempotencyKey, jobID: context.id.uuid, outcomes: inDoubt + refused, finish: .failed,
                                            audit: audit(plan, .failed))
            metrics.finished(plan.kind, .failed)
            throw JobError.discard("push text is missing or does not open with this host key")
        }

        let prepared = prepare(content, plan, todo)
        do {
            try await context.waitUntilDue()
        } catch {
            // Shut down before the push was due: nothing went out. This run's marks go, so the next
            // run sends without doubt; marks of an earlier run stay in doubt, as they were.
            let unsent = todo.filter { plan.claimed[$0.id] != nil }.map { SendOutcome(deviceID: $0.id, result: .retry) }
            _ = try? await store.recordSends(key: plan.idempotencyKey, jobID: context.id.uuid, outcomes: unsent, finish: nil, audit: nil)
            throw error
        }
        let sent = await send(prepared, plan)
        // The record can wait for the rest of a burst's requests to go out: the ledger's `sending`
        // marks and the collapse id already keep a crash meanwhile from showing anything twice (the
        // push would be resent under the same id), and the acceptance time was taken at the 200.
        await permits.untilNoneWaiting()
        var outcomes = inDoubt + sent.map(\.outcome)
        let retryAfter = sent.compactMap(\.retryAfter).max()
        let retrying = outcomes.filter { $0.result == .retry }
        if !retrying.isEmpty, context.attempt >= context.maxAttempts {
            // Out of attempts: these devices are given up on (in doubt, if the last exchange was); the
            // notification finishes below.
            let doubtful = Set(sent.filter { $0.reason == Self.inDoubtReason }.map(\.outcome.deviceID))
            outcomes = outcomes.map { outcome in
                guard outcome.result == .retry else { return outcome }
                return SendOutcome(deviceID: outcome.deviceID,
                                   result: doubtful.contains(outcome.deviceID) ? .unconfirmed : .rejected(reason: "attempts exhausted"))
            }
        }
        for outcome in outcomes { previous[outcome.deviceID] = outcome.result.sendState }
        if outcomes.contains(where: { $0.result == .retry }) {
            let first = try await store.recordSends(key: plan.idempotencyKey, jobID: context.id.uuid, outcomes: outcomes, finish: nil, audit: nil)
            metrics.retired(outcomes)
            observeFirstAcceptance(first, outcomes, plan, content)
            let reasons = Set(sent.compactMap(\.reason)).sorted().joined(separator: ",")
            throw JobError.retry("APNs asked to retry \(retrying.count) of \(plan.devices.count) device(s): \(reasons)", after: retryAfter)
        }
        return try await finish(plan, context, outcomes, previous: previous, content: content, expired: false)
    }

    /// Records the run and the notification's final state, and counts it.
    private func finish(_ plan: DeliveryPlan, _ context: JobContext, _ outcomes: [SendOutcome], previous: [UUID: DeliveryPlan.SendState],
                        content: PushContent?, expired: Bool) async throws -> JobOutcome {
        let states = Array(previous.values)
        let state: DeliveryPlan.State =
            if states.contains(.accepted) { .delivered }
            else if states.contains(.unconfirmed) { .unconfirmed }
            else if expired { .expired }
            else if plan.devices.isEmpty { .noDevice }
            else if !outcomes.isEmpty, states.allSatisfy({ $0 == .rejected }),
                    outcomes.allSatisfy({ if case .retire = $0.result { true } else { false } }) { .noDevice }
            else { .failed }
        let first = try await store.recordSends(key: plan.idempotencyKey, jobID: context.id.uuid, outcomes: outcomes, finish: state,
                                                audit: audit(plan, state))
        metrics.retired(outcomes)
        if let content { observeFirstAcceptance(first, outcomes, plan, content) }
        metrics.finished(plan.kind, state)
        if state != .delivered {
            context.logger.notice("notification finished without delivery", metadata: [
                "alfred.delivery.state": "\(state.rawValue)", "alfred.delivery.devices": "\(plan.devices.count)"])
        }
        return .done
    }

    /// Silent relay pushes leave no audit event: a row per wake-up, kept 400 days, would be a
    /// timeline of when the user's mailbox changed (issue #30). They are counted in
    /// `alfred_push_deliveries_total{kind="mail.relay"}` instead.
    private func audit(_ plan: DeliveryPlan, _ state: DeliveryPlan.State) -> DeliveryAudit? {
        guard auditing, DeliveryMetrics.backgroundKinds[plan.kind] == nil else { return nil }
        return DeliveryAudit(userID: plan.userID, result: state.rawValue.uppercased(),
                             metadata: ["kind": DeliveryMetrics.kindLabel(plan.kind), "devices": "\(plan.devices.count)"])
    }

    private func observeFirstAcceptance(_ first: Bool, _ outcomes: [SendOutcome], _ plan: DeliveryPlan, _ content: PushContent) {
        guard first, plan.kind == DeliveryMetrics.reminderKind else { return }
        let accepted = outcomes.compactMap { if case .accepted(let at) = $0.result { at } else { nil } }.min()
        guard let accepted else { return }
        metrics.reminderLateness.recordNanoseconds(Int64(max(0, accepted.timeIntervalSince(content.scheduledAt)) * 1e9))
    }

    private struct Sent: Sendable {
        var outcome: SendOutcome
        var retryAfter: Duration?
        var reason: String?
    }

    /// One device's request, ready to go; nil when its sealed token does not open.
    private struct Prepared: Sendable {
        let device: DeviceTarget
        let request: APNsRequest?
    }

    /// Everything a send needs that does not depend on the moment: the payload and each device's
    /// opened token.
    private func prepare(_ content: PushContent, _ plan: DeliveryPlan, _ devices: [DeviceTarget]) -> [Prepared] {
        let background = DeliveryMetrics.backgroundKinds[content.kind]
        let body: [UInt8] = background.map(APNsPayload.background(kind:))
            ?? APNsPayload.alert(title: content.title, body: content.body, threadID: DeliveryMetrics.thread(content.kind),
                                kind: DeliveryMetrics.thread(content.kind), timeSensitive: content.kind == DeliveryMetrics.reminderKind,
                                app: .init(category: NotificationContract.category(content), notificationID: content.collapseID,
                                           link: NotificationContract.link(content), joinURL: content.joinURL))
        let relay = background != nil
        return devices.map { device in
            guard let token = try? sealer.open(device.tokenSealed, purpose: .deviceToken, userID: plan.userID) else {
                return Prepared(device: device, request: nil)
            }
            // A resent mark's apns-id is new: apns-id only lines up logs; the collapse id is what
            // makes copies one notification.
            return Prepared(device: device, request: APNsRequest(
                deviceToken: String(decoding: token, as: UTF8.self),
                environment: APNsEnvironment(rawValue: device.environment) ?? .production,
                pushType: relay ? .background : .alert, priority: relay ? 5 : 10, expiration: plan.deadline,
                // A relay wake-up carries its mailbox's collapse id (one per mailbox, opaque).
                collapseID: Self.collapseID(relay ? content.collapseID : plan.idempotencyKey),
                apnsID: plan.claimed[device.id] ?? UUID(), payload: body))
        }
    }

    private func send(_ prepared: [Prepared], _ plan: DeliveryPlan) async -> [Sent] {
        await withTaskGroup(of: Sent.self) { group in
            var results: [Sent] = []
            var pending = prepared[...]
            func next(_ group: inout TaskGroup<Sent>) {
                guard let one = pending.popFirst() else { return }
                group.addTask { await permits.withPermit { await sendOne(one) } }
            }
            for _ in 0..<parallelism { next(&group) }
            for await result in group {
                results.append(result)
                next(&group)
            }
            return results
        }
    }

    /// `apns-collapse-id` is the idempotency key (opaque: a keyed hash), so a copy replaces rather than
    /// adds; the app names a notification by it (feedback). Apple allows 64 bytes; cut on a character boundary.
    static func collapseID(_ id: String) -> String {
        var id = id
        while id.utf8.count > 64 { id.removeLast() }
        return id
    }

    static let inDoubtReason = "in-doubt"
    /// Immediate resends of an exchange that broke off after the request left.
    static let inDoubtResends = 2

    /// Sends, and resends at once while the exchange breaks off after the request left (a dropped
    /// connection, a reset stream, a timeout): the copy carries the same collapse id, so the device
    /// shows one notification whichever copies arrived. Throws the last `inDoubt` if all broke off.
    private func sendResendingInDoubt(_ request: APNsRequest) async throws -> APNsResponse {
        var attempt = 0
        while true {
            do {
                return try await sender.send(request)
            } catch APNsClientError.inDoubt(let what) {
                attempt += 1
                guard attempt <= Self.inDoubtResends else { throw APNsClientError.inDoubt(what) }
                metrics.resent.increment()
            }
        }
    }

    private func sendOne(_ prepared: Prepared) async -> Sent {
        let device = prepared.device
        func outcome(_ result: SendOutcome.Result, retryAfter: Duration? = nil, reason: String? = nil) -> Sent {
            Sent(outcome: SendOutcome(deviceID: device.id, result: result), retryAfter: retryAfter, reason: reason)
        }
        guard let request = prepared.request else {
            return outcome(.rejected(reason: "device token does not open"), reason: "sealed-token")
        }
        let response: APNsResponse
        do {
            response = try await sendResendingInDoubt(request)
        } catch APNsClientError.payloadTooLarge {
            return outcome(.rejected(reason: "PayloadTooLarge"), reason: "PayloadTooLarge")
        } catch APNsClientError.malformedDeviceToken {
            return outcome(.retire(reason: "BadDeviceToken"), reason: "BadDeviceToken")
        } catch APNsClientError.inDoubt {
            // Still in doubt after the immediate resends: again with the queue's backoff, same collapse id.
            return outcome(.retry, reason: Self.inDoubtReason)
        } catch {
            // Not sent (connect or TLS failure, provider token unavailable): safe to try again.
            return outcome(.retry, reason: "network")
        }
        switch response.disposition {
        case .delivered:
            environments.accepted(request.environment, at: now())
            return outcome(.accepted(at: now()))
        case .retireDevice(let reason, let unregisteredAt):
            if let unregisteredAt, unregisteredAt < device.registeredAt {
                // The device registered this token again after APNs last saw it invalid: keep it.
                return outcome(.rejected(reason: reason.rawValue), reason: reason.rawValue)
            }
            if unregisteredAt == nil, !environments.recentlyAccepted(request.environment, now: now()) {
                // A 400 about the token itself, from an environment that has accepted nothing lately:
                // as likely a misconfigured host (wrong APNs host or topic), which answers this for
                // every device, as a bad token. Refuse this push; retire nothing (Apple's advice).
                return outcome(.rejected(reason: reason.rawValue), reason: reason.rawValue)
            }
            return outcome(.retire(reason: reason.rawValue), reason: reason.rawValue)
        case .renewProviderToken:
            return outcome(.retry, reason: "ExpiredProviderToken")
        case .retry(let after):
            if case .rejected(_, let reason, _, _) = response { return outcome(.retry, retryAfter: after, reason: reason.metricLabel) }
            return outcome(.retry, retryAfter: after)
        case .permanent(let reason):
            return outcome(.rejected(reason: reason.metricLabel), reason: reason.metricLabel)
        }
    }
}

/// Proof that this worker's APNs configuration works for an environment: a recent 200 from it.
final class EnvironmentHealth: Sendable {
    private let lastAccepted = Mutex<[APNsEnvironment: Date]>([:])
    static let window: TimeInterval = 600

    func accepted(_ environment: APNsEnvironment, at date: Date) { lastAccepted.withLock { $0[environment] = date } }

    func recentlyAccepted(_ environment: APNsEnvironment, now: Date) -> Bool {
        lastAccepted.withLock { $0[environment].map { now.timeIntervalSince($0) < Self.window } ?? false }
    }
}

extension SendOutcome.Result {
    var sendState: DeliveryPlan.SendState? {
        switch self {
        case .accepted: .accepted
        case .retire, .rejected: .rejected
        case .unconfirmed: .unconfirmed
        case .retry: nil
        }
    }
}

/// Delivery's metrics, made from the worker's factory. Creating them creates the SLI series, so
/// dashboards and rules see zeros from the start rather than nothing.
package struct DeliveryMetrics: Sendable {
    package static let reminderKind = "meeting.reminder"
    package static let relayKind = "mail.relay"
    /// Relay mode: the app's Gmail watch lapses soon; a silent push asks it to renew.
    package static let relayRenewKind = "mail.relay.renew"
    package static let kinds: Set<String> = [reminderKind, "morning.brief", "mail.urgent", relayKind, relayRenewKind]
    /// Silent pushes (no alert): what the app's background handler does, by kind.
    package static let backgroundKinds = [relayKind: "sync", relayRenewKind: "renew_watch"]

    let factory: any MetricsFactory
    package let reminderLateness: Timer
    package let reminderFailures: Counter
    /// Copies sent again because an exchange broke off after the request left.
    package let resent: Counter

    package init(factory: any MetricsFactory) {
        self.factory = factory
        reminderLateness = Timer(label: MetricName.reminderDeliverySeconds, preferredDisplayUnit: .seconds, factory: factory)
        reminderFailures = Counter(label: MetricName.reminderDeliveryFailures, factory: factory)
        resent = Counter(label: MetricName.pushResends, factory: factory)
    }

    package static func thread(_ kind: String) -> String {
        switch kind {
        case reminderKind: "calendar"
        case "morning.brief": "brief"
        default: "mail"
        }
    }

    package static func kindLabel(_ kind: String) -> String { kinds.contains(kind) ? kind : "other" }

    package func finished(_ kind: String, _ state: DeliveryPlan.State) {
        let label = Self.kindLabel(kind)
        Counter(label: MetricName.pushDeliveries, dimensions: [("kind", label), ("result", state.rawValue)], factory: factory).increment()
        if kind == Self.reminderKind, [.expired, .failed, .unconfirmed].contains(state) { reminderFailures.increment() }
    }

    package func retired(_ outcomes: [SendOutcome]) {
        for case .retire(let reason) in outcomes.map(\.result) {
            Counter(label: MetricName.devicesRetired, dimensions: [("reason", APNsReason(rawValue: reason).metricLabel)],
                    factory: factory).increment()
        }
    }
}

import AlfredCore
import Metrics

/// The queue's metric handles, created once per registered kind (plus `unknown`), so recording on the
/// hot path is a dictionary lookup, and a stray kind string can never add a label value.
struct QueueMetrics: Sendable {
    struct Kind: Sendable {
        let claimed, completed, failed, retried, discarded, expired, rescued, leaseLost: Counter
        let duration, lateness: Timer

        init(_ kind: String, factory: any MetricsFactory) {
            let d = [("kind", kind)]
            claimed = Counter(label: MetricName.jobsClaimed, dimensions: d, factory: factory)
            completed = Counter(label: MetricName.jobsCompleted, dimensions: d, factory: factory)
            failed = Counter(label: MetricName.jobsFailed, dimensions: d, factory: factory)
            retried = Counter(label: MetricName.jobsRetried, dimensions: d, factory: factory)
            discarded = Counter(label: MetricName.jobsDiscarded, dimensions: d, factory: factory)
            expired = Counter(label: MetricName.jobsExpired, dimensions: d, factory: factory)
            rescued = Counter(label: MetricName.jobsRescued, dimensions: d, factory: factory)
            leaseLost = Counter(label: MetricName.jobsLeaseLost, dimensions: d, factory: factory)
            duration = Timer(label: MetricName.jobDuration, dimensions: d, preferredDisplayUnit: .seconds, factory: factory)
            lateness = Timer(label: MetricName.jobStartLateness, dimensions: d, preferredDisplayUnit: .seconds, factory: factory)
        }
    }

    private let kinds: [String: Kind]
    private let unknown: Kind

    init(kinds: [JobKind], factory: any MetricsFactory) {
        self.kinds = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, Kind($0.name, factory: factory)) })
        unknown = Kind(MetricName.unknownKind, factory: factory)
    }

    subscript(kind: String) -> Kind { kinds[kind] ?? unknown }

    static func storeError(_ operation: String, factory: any MetricsFactory) -> Counter {
        Counter(label: MetricName.storeErrors, dimensions: [("operation", operation)], factory: factory)
    }
}

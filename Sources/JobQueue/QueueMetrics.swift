import AlfredCore
import Metrics

/// The queue's metric handles, created once per registered kind (plus `unknown`), so recording on the
/// hot path is a dictionary lookup, and a stray kind string can never add a label value.
struct QueueMetrics: Sendable {
    struct Kind: Sendable {
        let claimed, completed, failed, retried, discarded, expired, rescued, leaseLost: Counter
        let duration, lateness: Timer

        init(_ kind: String) {
            let d = [("kind", kind)]
            claimed = Counter(label: MetricName.jobsClaimed, dimensions: d)
            completed = Counter(label: MetricName.jobsCompleted, dimensions: d)
            failed = Counter(label: MetricName.jobsFailed, dimensions: d)
            retried = Counter(label: MetricName.jobsRetried, dimensions: d)
            discarded = Counter(label: MetricName.jobsDiscarded, dimensions: d)
            expired = Counter(label: MetricName.jobsExpired, dimensions: d)
            rescued = Counter(label: MetricName.jobsRescued, dimensions: d)
            leaseLost = Counter(label: MetricName.jobsLeaseLost, dimensions: d)
            duration = Timer(label: MetricName.jobDuration, dimensions: d, preferredDisplayUnit: .seconds)
            lateness = Timer(label: MetricName.jobStartLateness, dimensions: d, preferredDisplayUnit: .seconds)
        }
    }

    private let kinds: [String: Kind]
    private let unknown: Kind

    init(kinds: [JobKind]) {
        self.kinds = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name, Kind($0.name)) })
        unknown = Kind(MetricName.unknownKind)
    }

    subscript(kind: String) -> Kind { kinds[kind] ?? unknown }

    static func storeError(_ operation: String) -> Counter {
        Counter(label: MetricName.storeErrors, dimensions: [("operation", operation)])
    }
}

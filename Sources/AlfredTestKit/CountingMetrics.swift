import CoreMetrics
import Synchronization

/// A metrics factory for one test: counts counters by `label{dimensions}` and remembers every timer
/// and recorder it made, so a test reads what a component exported without a process-wide bootstrap
/// (suites share the process). Pass it where a component takes a `MetricsFactory`.
public final class CountingMetrics: MetricsFactory, Sendable {
    private let counts = Mutex<[String: Int64]>([:])
    private let others = Mutex<Set<String>>([])

    public init() {}

    public static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        label + "{" + dimensions.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
    }

    public func count(_ label: String, _ dimensions: [(String, String)]) -> Int64 {
        counts.withLock { $0[Self.key(label, dimensions)] ?? 0 }
    }

    /// Every counter key with a non-zero count.
    public var keys: [String] { counts.withLock { $0.filter { $0.value > 0 }.map(\.key).sorted() } }

    /// Every metric made so far (counters, timers, recorders), with its labels.
    public var allKeys: [String] { (counts.withLock { Set($0.keys) }).union(others.withLock { $0 }).sorted() }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Handler(key: Self.key(label, dimensions), counts: self)
    }
    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        others.withLock { _ = $0.insert(Self.key(label, dimensions)) }
        return Ignored()
    }
    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        others.withLock { _ = $0.insert(Self.key(label, dimensions)) }
        return Ignored()
    }
    public func destroyCounter(_ handler: any CounterHandler) {}
    public func destroyRecorder(_ handler: any RecorderHandler) {}
    public func destroyTimer(_ handler: any TimerHandler) {}

    fileprivate func add(_ key: String, _ amount: Int64) { counts.withLock { $0[key, default: 0] += amount } }

    private final class Handler: CounterHandler, Sendable {
        let key: String
        let counts: CountingMetrics
        init(key: String, counts: CountingMetrics) {
            self.key = key
            self.counts = counts
        }
        func increment(by amount: Int64) { counts.add(key, amount) }
        func reset() {}
    }

    private final class Ignored: RecorderHandler, TimerHandler, Sendable {
        func record(_ value: Int64) {}
        func record(_ value: Double) {}
        func recordNanoseconds(_ duration: Int64) {}
    }
}

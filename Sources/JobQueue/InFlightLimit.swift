import AlfredCore

/// How many jobs a worker holds at once, adapted to the jobs it is given.
///
/// `concurrency` is what an operator sets to bound work that waits on something else: a Google
/// fetch, an APNs send, a database read. Jobs that finish in microseconds hold nothing while they
/// run, and for them the bound only decides how many the worker claims per statement and how long it
/// then waits for one commit before the next claim: 32 of them at a time left a no-op backlog
/// draining at about a quarter of what Postgres can lease and acknowledge.
///
/// So the limit grows while both hold: the jobs are cheap (their mean run time, an exponentially
/// weighted average, is under `cheap`) and there is a backlog (the last claim came back full). It
/// doubles per full claim up to `ceiling`, and claims grow with it (`claimSize`: half the limit,
/// so that one claim is in flight while the jobs of the last one finish and are acknowledged;
/// at least the configured batch): a claim or an acknowledgement costs a commit whatever its size,
/// and with 100 jobs per commit a no-op backlog drained at 14,500 jobs/s here, with 400 at 25,000. It goes back to `floor` as soon as the jobs stop being
/// cheap, and after `patience` claims in a row that found no backlog (a steady stream of cheap jobs,
/// 50 every 10 ms, keeps the limit that takes each group in one claim, instead of two claims per
/// group at 32). Slow I/O jobs never see more than the configured concurrency at once.
///
/// A value without I/O or clocks: the worker reports run times and claims, and reads `current`.
struct InFlightLimit: Sendable, Equatable {
    let floor: Int
    let ceiling: Int
    /// Mean run time, in seconds, under which jobs count as cheap.
    let cheap: Double

    private(set) var current: Int
    /// Exponentially weighted mean run time in seconds (weight 1/16 per new job); nil before the
    /// first `floor` jobs, so one lucky job does not raise the limit.
    private(set) var meanRunTime: Double?
    private var samples = 0
    /// Claims in a row that came back short.
    private var shortClaims = 0
    /// How many short claims in a row bring the limit back to `floor`.
    static let patience = 8

    /// - Parameters:
    ///   - concurrency: the configured limit, which slow jobs never exceed.
    ///   - ceiling: the most jobs held at once while cheap jobs are backlogged (at least `concurrency`).
    ///   - cheap: the mean run time below which jobs count as cheap.
    /// The default ceiling: how many no-op jobs it takes to keep two claims of 512 in flight.
    static let defaultCeiling = 1024

    init(concurrency: Int, ceiling: Int, cheap: Duration = .milliseconds(5)) {
        floor = max(1, concurrency)
        self.ceiling = max(floor, ceiling)
        self.cheap = cheap.seconds
        current = floor
    }

    /// A job ran for `seconds`.
    mutating func ran(seconds: Double) {
        samples += 1
        let mean = meanRunTime.map { $0 + (seconds - $0) / 16 } ?? seconds
        meanRunTime = mean
        if mean >= cheap { current = floor }
    }

    /// How many jobs to claim in one statement with `free` slots, given the configured `batch`.
    func claimSize(free: Int, batch: Int) -> Int {
        min(free, max(batch, current / 2))
    }

    /// A claim asked for `wanted` jobs and got `got`.
    mutating func claimed(_ got: Int, of wanted: Int) {
        guard wanted > 0 else { return }
        if got < wanted {
            shortClaims += 1
            if shortClaims >= Self.patience { current = floor }
            return
        }
        shortClaims = 0
        if samples >= floor, let meanRunTime, meanRunTime < cheap {
            current = min(ceiling, current * 2)
        }
    }
}

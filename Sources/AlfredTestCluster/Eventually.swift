import Foundation

/// Polls `condition` until it holds or `timeout` passes. For state that lives in another process
/// or in the database, where there is no signal to wait on.
///
/// The limit is a hang detector, not a speed bound: keep it generous (the default suits a starved
/// 2-core machine). Polls start at 10 ms apart and back off to 250 ms, so a long wait costs few
/// queries or process starts.
public func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(10)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(250))
    }
    return try await condition()
}

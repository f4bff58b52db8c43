/// Waits for in-process state that has no event to wait on (a count inside a component under test)
/// by yielding to the tasks that change it until `condition` holds. It never sleeps and has no time
/// limit of its own: the suite's `.timeLimit` is the hang detector, and cancellation ends the wait.
/// For state in the database or another process, the cluster kit's `eventually` polls instead.
public func yieldUntil(_ condition: () -> Bool) async throws {
    while !condition() {
        try Task.checkCancellation()
        await Task.yield()
    }
}

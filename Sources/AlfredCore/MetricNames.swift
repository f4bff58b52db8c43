/// Every metric the service exports, in one place. Labels come from small fixed sets only
/// (registered job kinds, queue names, outcomes) — never ids, tokens, addresses or titles.
public enum MetricName {
    public static let jobsClaimed = "alfred_jobs_claimed_total"
    public static let jobsCompleted = "alfred_jobs_completed_total"
    public static let jobsFailed = "alfred_jobs_failed_total"
    public static let jobsRetried = "alfred_jobs_retried_total"
    public static let jobsDiscarded = "alfred_jobs_discarded_total"
    public static let jobsExpired = "alfred_jobs_expired_total"
    public static let jobsRescued = "alfred_jobs_rescued_total"
    public static let jobsLeaseLost = "alfred_jobs_lease_lost_total"
    public static let jobDuration = "alfred_job_duration_seconds"
    public static let jobStartLateness = "alfred_job_start_lateness_seconds"
    public static let queueReadyDepth = "alfred_queue_ready_depth"
    public static let queueOldestDueAge = "alfred_queue_oldest_due_age_seconds"
    public static let storeErrors = "alfred_store_errors_total"
    public static let jobsPruned = "alfred_jobs_pruned_total"

    public static let oauthRefreshes = "alfred_oauth_refresh_total"
    public static let brokerKeyDenials = "alfred_broker_key_denials_total"
    public static let keyServiceDecisions = "alfred_key_service_decisions_total"
    public static let keyServiceAuditFailures = "alfred_key_service_audit_failures_total"

    /// Label value used for kinds that have no handler here, so a stray kind string cannot grow the label set.
    public static let unknownKind = "unknown"
}

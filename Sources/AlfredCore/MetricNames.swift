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
    public static let queuePaused = "alfred_queue_paused"
    public static let storeErrors = "alfred_store_errors_total"
    public static let jobsPruned = "alfred_jobs_pruned_total"

    /// Every refresh the broker attempts, once. Label `result`: `success`, `invalid_grant` (the user
    /// must connect again), `unavailable` (Google failed or was too slow), `attestation_denied` (the key
    /// service refused this broker's evidence), `key_service_unavailable` (it could not be asked).
    public static let oauthRefreshes = "alfred_oauth_refresh_total"
    /// Every connect (code exchange) the broker attempts. Label `result`: `success`, `code_refused`,
    /// `missing_scopes` (revoked), `revoked_after_failure` (the grant could not be stored, so it was
    /// revoked), `revoke_failed` (nor revoked: alert), `unavailable` (Google failed).
    public static let oauthConnects = "alfred_oauth_connect_total"
    public static let brokerKeyDenials = "alfred_broker_key_denials_total"
    public static let keyServiceDecisions = "alfred_key_service_decisions_total"
    public static let keyServiceAuditFailures = "alfred_key_service_audit_failures_total"
    /// Unix time at which the attestation chain of the last evidence the key service verified stops
    /// being valid (its first CA to expire): the alert to renew the authority watches it.
    public static let attestationChainExpiry = "alfred_attestation_chain_expiry_timestamp_seconds"

    /// Label value used for kinds that have no handler here, so a stray kind string cannot grow the label set.
    public static let unknownKind = "unknown"
}

extension MetricName {
    public static let calendarSyncs = "alfred_calendar_syncs_total"
    public static let remindersScheduled = "alfred_reminders_scheduled_total"
    public static let reminderOutcomes = "alfred_reminder_outcomes_total"
    public static let mailMessagesScored = "alfred_mail_messages_scored_total"
    public static let urgentMail = "alfred_urgent_mail_total"
    public static let briefs = "alfred_briefs_total"
    public static let notificationsEnqueued = "alfred_notifications_enqueued_total"
}

extension MetricName {
    /// Calendar/Gmail HTTP attempts (retries included). Labels: `api` (calendar|gmail), `result`
    /// (ok|not_found|client_error|server_error|rate_limited|unauthorized|network).
    public static let googleRequests = "alfred_google_requests_total"
    /// Calendar/Gmail HTTP exchange time, head to last body byte. Label: `api`.
    public static let googleRequestDuration = "alfred_google_request_duration_seconds"
}

extension MetricName {
    /// SLI: APNs acceptance time minus the reminder's scheduled time, observed once per reminder that
    /// APNs accepted (HTTP 200). Buckets include exactly 1, 5, 30, 60 and 300 s. No labels.
    public static let reminderDeliverySeconds = "alfred_reminder_delivery_seconds"
    /// SLI: reminders that reached a terminal failure (no 200 before their deadline or attempts ran
    /// out, or an unconfirmed send). Reminders whose only devices are retired count in neither.
    public static let reminderDeliveryFailures = "alfred_reminder_delivery_failures_total"
    /// One per notification (not per device). Labels: `kind` (meeting.reminder|morning.brief|
    /// mail.urgent|mail.relay), `result` (delivered|expired|failed|unconfirmed|no_device).
    public static let pushDeliveries = "alfred_push_deliveries_total"
    /// One per APNs request. Label `result`: `success`, an APNs reason from Apple's documented set
    /// (`BadDeviceToken`, `Unregistered`, `TooManyRequests`, ...), `network`, or `other`.
    public static let apnsRequests = "alfred_apns_requests_total"
    /// APNs exchange time, request to response. No labels.
    public static let apnsRequestDuration = "alfred_apns_request_duration_seconds"
    /// Device tokens retired after APNs said so. Label `reason` (Unregistered|ExpiredToken|BadDeviceToken|DeviceTokenNotForTopic).
    public static let devicesRetired = "alfred_devices_retired_total"
    /// Push copies sent again at once because the exchange broke off after the request left (a
    /// dropped connection, a reset stream, a timeout). The copy has the same collapse id: the device
    /// shows one notification. No labels.
    public static let pushResends = "alfred_push_resends_total"
    /// Seconds the oldest open delete-all request has waited (0 when none). Every worker samples it.
    public static let privacyOpenRequestAge = "alfred_privacy_open_request_age_seconds"
    /// Seconds the oldest revocation parked by a delete-all has waited for Google (0 when none).
    public static let privacyParkedRevocationAge = "alfred_privacy_parked_revocation_age_seconds"
    /// Provider JWTs minted (broker). Label `trigger` (initial|age|expired_provider_token).
    public static let apnsProviderTokenMints = "alfred_apns_provider_token_mints_total"
    /// User feedback on urgent-mail alerts (the `feedback.urgent` job). Label `verdict`
    /// (false_positive|confirmed).
    public static let urgentFeedback = "alfred_urgent_feedback_total"
    /// Urgent-mail alerts created (`mail.urgent` notifications), once per rule that pushed the alert over
    /// the bar (issue #17). Label `rule`: a rule id with its `:language` qualifier kept (`urgency_word:de`),
    /// a bounded set; ids outside the rule set are `other`. Never message content.
    public static let urgencyAlerts = "alfred_urgency_alerts_total"
    /// User verdicts on urgent-mail alerts, once per rule of the alert (issue #17). Labels `rule` (as
    /// `urgencyAlerts`), `verdict` (false_positive|confirmed). Per rule, the false_positive count over
    /// `urgencyAlerts` is that rule's false-positive rate.
    public static let urgencyFeedback = "alfred_urgency_feedback_total"
    /// Delete-all completion time, request to final audit record (issue #6). No labels.
    public static let deleteAllDuration = "alfred_delete_all_duration_seconds"
    /// API requests answered (issue #15). Labels `route` (the route pattern, or `unmatched`),
    /// `method`, `status_class` (2xx|3xx|4xx|5xx).
    public static let apiRequests = "alfred_api_requests_total"
    /// API request handling time, request head to response. Labels `route`, `method`.
    public static let apiRequestDuration = "alfred_api_request_duration_seconds"
    /// Sign-ins and refreshes by outcome. Label `result` (signed_in|created|refreshed|reused|refused|...).
    public static let apiSessions = "alfred_api_sessions_total"
    /// Sign-in state the API's sweep removed. Label `what`: `expired_sessions` (ended, devices
    /// retired), `deleted_sessions`, `used_refresh_tokens`, `retired_devices`.
    public static let apiSwept = "alfred_api_swept_total"
    /// Sign in with Apple's server-to-server notifications. Label `result`: `consent-revoked`,
    /// `account-delete`, `ignored` (email events), `unknown_account`, `refused`.
    public static let appleAccountEvents = "alfred_api_apple_account_events_total"
    /// Google connect flows through the API. Label `result`: `started`, `connected`, `invalid_state`,
    /// `code_refused`, `missing_scopes`, `denied` (Google's consent page was declined), `failed`, `unavailable`.
    public static let apiConnects = "alfred_api_connects_total"
    /// Gmail pushes from Pub/Sub. Label `result`: `accepted` (a watched mailbox's check brought
    /// forward), `relayed` (relay mode only: a wake-up queued), `unknown_address`, `malformed`, or
    /// `refused_<reason>` for a token that failed verification (`refused_bad_signature`, ...).
    public static let gmailPushes = "alfred_gmail_pushes_total"
}

extension MetricName {
    /// `# HELP` text per metric family, emitted with the exposition (promtool lints for it).
    public static let help: [String: String] = [
        jobsClaimed: "Jobs claimed by this worker, by kind.",
        jobsCompleted: "Jobs completed (or rescheduled, for recurring kinds), by kind.",
        jobsFailed: "Failed job attempts, by kind.",
        jobsRetried: "Failed attempts that were queued again with backoff, by kind.",
        jobsDiscarded: "Jobs given up on (out of attempts or not retryable), by kind.",
        jobsExpired: "Jobs whose deadline passed before they could succeed, by kind.",
        jobsRescued: "Running jobs whose lease expired and were queued again, by kind.",
        jobsLeaseLost: "Job outcomes refused because the lease was lost meanwhile, by kind.",
        jobDuration: "Handler run time per attempt, by kind.",
        jobStartLateness: "Claim time minus due time per attempt (database clock), by kind.",
        queueReadyDepth: "Jobs due and waiting to be claimed, by queue.",
        queueOldestDueAge: "Age of the oldest due job not yet claimed, by queue.",
        queuePaused: "1 while an operator has paused the queue (alfred jobs pause), else 0.",
        storeErrors: "Queue bookkeeping writes that failed, by operation.",
        jobsPruned: "Finished jobs deleted after their retention.",
        oauthRefreshes: "Google access-token refreshes by the broker, by result.",
        oauthConnects: "Google connects (code exchanges) by the broker, by result.",
        brokerKeyDenials: "Data-key requests the key service refused to the broker, by reason.",
        keyServiceDecisions: "Key service decisions, by operation, decision and reason.",
        attestationChainExpiry: "Unix time at which the attestation chain of the last verified evidence expires.",
        keyServiceAuditFailures: "Key service decisions whose audit record could not be written.",
        calendarSyncs: "Calendar syncs, by mode (full or incremental).",
        remindersScheduled: "Meeting reminders scheduled or moved by calendar syncs.",
        reminderOutcomes: "What meeting reminder jobs did when they ran, by outcome.",
        mailMessagesScored: "Gmail messages scored by the urgency rules.",
        urgentMail: "Mail judged urgent, by disposition (alerted, held, duplicate).",
        briefs: "Morning briefs, by outcome.",
        notificationsEnqueued: "Notifications handed to delivery, by kind.",
        googleRequests: "Calendar and Gmail HTTP attempts, by api and result.",
        googleRequestDuration: "Calendar and Gmail HTTP exchange time, by api.",
        reminderDeliverySeconds: "SLI: APNs acceptance minus scheduled time, once per delivered reminder.",
        reminderDeliveryFailures: "SLI: reminders that reached a terminal failure (expired, failed, unconfirmed).",
        pushDeliveries: "Finished notifications, by kind and result.",
        apnsRequests: "APNs requests, by result (success or Apple's reason).",
        apnsRequestDuration: "APNs exchange time, request to response.",
        devicesRetired: "Device tokens retired after APNs said they are dead, by reason.",
        pushResends: "Push copies resent under the same collapse id after an exchange broke off mid-request.",
        privacyOpenRequestAge: "Age of the oldest open delete-all request (0 when none).",
        privacyParkedRevocationAge: "Age of the oldest revocation parked for Google (0 when none).",
        apnsProviderTokenMints: "APNs provider tokens minted by the broker, by trigger.",
        urgentFeedback: "User verdicts on urgent-mail alerts, by verdict.",
        urgencyAlerts: "Urgent-mail alerts created, once per urgency rule that made the alert, by rule.",
        urgencyFeedback: "User verdicts on urgent-mail alerts, once per urgency rule of the alert, by rule and verdict.",
        deleteAllDuration: "Delete-all completion time, request to final audit record.",
        apiRequests: "API requests answered, by route pattern, method and status class.",
        apiRequestDuration: "API request handling time, by route pattern and method.",
        apiSessions: "API sign-ins and refreshes, by outcome.",
        apiSwept: "Sign-in state the API's sweep ended or removed, by what.",
        appleAccountEvents: "Sign in with Apple account notifications, by event or refusal.",
        apiConnects: "Google connect flows through the API, by outcome.",
        gmailPushes: "Gmail pushes received from Pub/Sub, by outcome.",
    ]
}

/// `fields` selectors (Google's partial-response syntax): ask only for what reminders need, so less
/// personal data crosses the wire (no descriptions, attendee addresses or organisers) and pages stay small.
enum PartialResponse {
    /// One event: what `CalendarEvent` reads. `transparency` is there for the "free time is low
    /// priority" urgency hint (external-apis §2.2).
    static let event = "id,status,summary,location,start,end,attendees(self,responseStatus),hangoutLink,"
        + "conferenceData/entryPoints(entryPointType,uri),eventType,transparency,recurringEventId,originalStartTime,updated"

    /// An `events.list` page: paging and sync cursors, the calendar's zone, and the events.
    static let eventsPage = "nextPageToken,nextSyncToken,timeZone,items(\(event))"

    /// One Gmail message: ids, labels, history id, dates, the requested headers and `snippet` (Gmail's
    /// first ~200 characters of the text), which the urgency rules read for deadlines and asks in
    /// memory; it is never stored or logged. No body.
    static let gmailMessage = "id,threadId,labelIds,snippet,historyId,internalDate,sizeEstimate,payload(mimeType,headers)"

    /// `settings/timezone`.
    static let timeZoneSetting = "value"
}

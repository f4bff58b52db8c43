#!/usr/bin/env python3
"""Drives the Google stand-in with Google's own Python client (google-api-python-client), which
nobody on this project wrote: if it can list, page, get, read settings, list history and watch
against the stand-in, the stand-in speaks Calendar v3 and Gmail v1 as Google does.

    python google_client_check.py BASE_URL ACCESS_TOKEN

BASE_URL is the stand-in's root (http://127.0.0.1:PORT); ACCESS_TOKEN a bearer token with
calendar.readonly and gmail.metadata (e.g. from POST /_fake/tokens). The user needs events in the
next week and INBOX+UNREAD mail. Prints one JSON summary on stdout (shape below) and exits 0;
on any failure prints "google_client_check: FAILED at <step>: <why>" on stderr and exits 1.

    {"calendar": {"pages": 2, "pageSizes": [2, 2], "eventIds": [...in start order],
                  "recurringEventIds": ["evt-standup"], "nextSyncToken": true, "incrementalItems": 0,
                  "timeZone": "Europe/Zurich", "settingTimeZone": "Europe/Zurich",
                  "event": {"id", "summary", "selfResponse", "hangoutLink", "meetUri"}},
     "gmail": {"messageIds": [...INBOX+UNREAD, newest first], "resultSizeEstimate": 2, "inboxIds": [...],
               "metadata": {"id", "historyId", "internalDate", "labelIds", "headers": {name: value}},
               "profile": {"emailAddress", "messagesTotal", "threadsTotal", "historyId"},
               "historyMessageIds": [...], "historyId": "...", "watch": {"historyId", "expiration"},
               "notFound": {"status": 404, "reason": "notFound", "message": "Requested entity was not found."}}}

How requests reach the stand-in: googleapiclient replaces rootUrl + servicePath of the discovery
document with client_options["api_endpoint"] and appends each method's path. Calendar's servicePath
is "calendar/v3/" with method paths like "calendars/{calendarId}/events"; Gmail's servicePath is ""
with paths like "gmail/v1/users/{userId}/messages". So the endpoint is BASE_URL + "/" + servicePath,
read from the bundled discovery document, and both APIs land on the stand-in's real Google paths.
"""

import datetime
import json
import os
import sys

STEP = "startup"


def fail(message):
    print(f"google_client_check: FAILED at {STEP}: {message}", file=sys.stderr)
    sys.exit(1)


def step(name):
    global STEP
    STEP = name


def require(condition, message):
    if not condition:
        fail(message)


def service(name, version, base_url, credentials):
    from googleapiclient import discovery
    from googleapiclient.discovery_cache import get_static_doc

    document = get_static_doc(name, version)
    require(document is not None, f"googleapiclient has no bundled discovery document for {name} {version}")
    service_path = json.loads(document)["servicePath"]
    endpoint = base_url.rstrip("/") + "/" + service_path
    return discovery.build(name, version, credentials=credentials, static_discovery=True,
                           client_options={"api_endpoint": endpoint})


def check_calendar(calendar):
    step("calendar events.list (singleEvents, orderBy=startTime, timeMin/timeMax, fields, list_next)")
    now = datetime.datetime.now(datetime.timezone.utc)
    fields = ("nextPageToken,nextSyncToken,timeZone,items(id,status,summary,start,end,"
              "attendees(email,responseStatus,self),hangoutLink,location,conferenceData/entryPoints,"
              "recurringEventId,originalStartTime,updated)")
    request = calendar.events().list(
        calendarId="primary", singleEvents=True, orderBy="startTime", maxResults=2, fields=fields,
        timeMin=(now - datetime.timedelta(days=1)).isoformat(), timeMax=(now + datetime.timedelta(days=7)).isoformat())
    page_sizes, items, sync_token, time_zone = [], [], None, None
    while request is not None:
        response = request.execute()
        require(set(response) <= {"nextPageToken", "nextSyncToken", "timeZone", "items"},
                f"fields selection not honoured: top-level keys {sorted(response)}")
        require(not ("nextPageToken" in response and "nextSyncToken" in response),
                "nextSyncToken must only come on the last page")
        page_sizes.append(len(response.get("items", [])))
        items += response.get("items", [])
        sync_token = response.get("nextSyncToken")
        time_zone = response.get("timeZone")
        request = calendar.events().list_next(request, response)
        require(len(page_sizes) < 50, "paging does not end")
    require(items, "no events in the window; seed some within the next week")
    starts = [item["start"].get("dateTime") or item["start"].get("date") for item in items]
    require(all(starts), f"every event needs start.dateTime or start.date: {starts}")
    for item in items:
        extra = set(item) - {"id", "status", "summary", "start", "end", "attendees", "hangoutLink", "location",
                             "conferenceData", "recurringEventId", "originalStartTime", "updated"}
        require(not extra, f"items(...) selection not honoured: {sorted(extra)}")
    require(sync_token, "the last page carries no nextSyncToken")

    step("calendar events.list with syncToken")
    incremental = calendar.events().list(calendarId="primary", singleEvents=True, syncToken=sync_token).execute()
    require("nextSyncToken" in incremental, "an incremental sync must end with a new nextSyncToken")

    step("calendar events.get")
    chosen = next((item for item in items if item.get("attendees")), items[0])
    event = calendar.events().get(calendarId="primary", eventId=chosen["id"]).execute()
    require(event["id"] == chosen["id"], f"events.get returned {event.get('id')} for {chosen['id']}")
    me = next((a for a in event.get("attendees", []) if a.get("self")), {})
    entry_points = event.get("conferenceData", {}).get("entryPoints", [])

    step("calendar settings.get timezone")
    setting = calendar.settings().get(setting="timezone").execute()
    require(setting.get("kind") == "calendar#setting" and setting.get("id") == "timezone", f"odd setting: {setting}")

    return {
        "pages": len(page_sizes), "pageSizes": page_sizes, "eventIds": [item["id"] for item in items],
        "recurringEventIds": sorted({item["recurringEventId"] for item in items if "recurringEventId" in item}),
        "nextSyncToken": bool(sync_token), "incrementalItems": len(incremental.get("items", [])),
        "timeZone": time_zone,
        "event": {"id": event["id"], "summary": event.get("summary"), "selfResponse": me.get("responseStatus"),
                  "hangoutLink": event.get("hangoutLink"), "meetUri": entry_points[0]["uri"] if entry_points else None},
        "settingTimeZone": setting.get("value"),
    }


def check_gmail(gmail):
    from googleapiclient.errors import HttpError

    step("gmail users.messages.list (repeated labelIds, pageToken)")
    # list_next() cannot page a request with a repeated parameter (googleapiclient's
    # update_query_params raises "URL-encoded content contains a repeated value"), so page by hand.
    ids, estimate, page_token = [], None, None
    while True:
        response = gmail.users().messages().list(userId="me", labelIds=["INBOX", "UNREAD"], maxResults=1,
                                                 pageToken=page_token).execute()
        ids += [message["id"] for message in response.get("messages", [])]
        estimate = response.get("resultSizeEstimate", estimate)
        page_token = response.get("nextPageToken")
        require(len(ids) < 1000, "paging does not end")
        if not page_token:
            break
    require(ids, "no INBOX+UNREAD messages; seed some")

    step("gmail users.messages.list (one labelId, list_next)")
    request, inbox = gmail.users().messages().list(userId="me", labelIds="INBOX", maxResults=2), []
    while request is not None:
        response = request.execute()
        inbox += [message["id"] for message in response.get("messages", [])]
        request = gmail.users().messages().list_next(request, response)
        require(len(inbox) < 1000, "paging does not end")

    step("gmail users.messages.get (format=metadata, metadataHeaders)")
    wanted = ["From", "Subject", "Date", "List-Unsubscribe"]
    message = gmail.users().messages().get(userId="me", id=ids[-1], format="metadata", metadataHeaders=wanted).execute()
    require(isinstance(message.get("historyId"), str) and message["historyId"].isdigit(),
            f"historyId must be a string of digits: {message.get('historyId')!r}")
    require(isinstance(message.get("internalDate"), str) and message["internalDate"].isdigit(),
            f"internalDate must be a string of digits: {message.get('internalDate')!r}")
    headers = {h["name"]: h["value"] for h in message.get("payload", {}).get("headers", [])}
    require(set(headers) <= set(wanted) and "From" in headers, f"metadataHeaders not honoured: {sorted(headers)}")

    step("gmail users.getProfile")
    profile = gmail.users().getProfile(userId="me").execute()

    step("gmail users.history.list")
    history = gmail.users().history().list(userId="me", startHistoryId=message["historyId"],
                                           historyTypes=["messageAdded"], labelId="INBOX", maxResults=100).execute()
    added = [entry["message"]["id"] for record in history.get("history", []) for entry in record.get("messagesAdded", [])]
    require(history.get("historyId") == profile["historyId"],
            f"history.historyId {history.get('historyId')} differs from profile {profile['historyId']}")

    step("gmail users.watch and users.stop")
    watch = gmail.users().watch(userId="me", body={
        "topicName": "projects/alfred-test/topics/gmail-events", "labelIds": ["INBOX"],
        "labelFilterBehavior": "include"}).execute()
    require(watch.get("expiration", "").isdigit() and watch.get("historyId", "").isdigit(), f"odd watch answer: {watch}")
    gmail.users().stop(userId="me").execute()

    step("gmail users.messages.get of an unknown id (error body)")
    try:
        gmail.users().messages().get(userId="me", id="0000000000000000", format="minimal").execute()
        fail("an unknown message id did not fail")
    except HttpError as error:
        details = error.error_details if isinstance(error.error_details, list) else []
        not_found = {"status": error.resp.status, "reason": details[0].get("reason") if details else None,
                     "message": error.reason}

    return {
        "messageIds": ids, "resultSizeEstimate": estimate, "inboxIds": inbox,
        "metadata": {"id": message["id"], "historyId": message["historyId"], "internalDate": message["internalDate"],
                     "labelIds": message.get("labelIds", []), "headers": headers},
        "profile": profile, "historyMessageIds": added, "historyId": history.get("historyId"),
        "watch": watch, "notFound": not_found,
    }


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        print("usage: google_client_check.py BASE_URL ACCESS_TOKEN", file=sys.stderr)
        sys.exit(2)
    base_url, token = sys.argv[1], sys.argv[2]
    # The stand-in is on loopback: never send its traffic (or the token) through a configured proxy.
    for name in ("no_proxy", "NO_PROXY"):
        os.environ[name] = ",".join(filter(None, [os.environ.get(name), "127.0.0.1", "localhost", "::1"]))

    step("import googleapiclient / google-auth (run bootstrap_venv.sh and use its python)")
    try:
        import google.oauth2.credentials
        from googleapiclient.errors import HttpError
    except ImportError as error:
        fail(str(error))

    credentials = google.oauth2.credentials.Credentials(token)
    try:
        step("build services from the bundled discovery documents")
        calendar = service("calendar", "v3", base_url, credentials)
        gmail = service("gmail", "v1", base_url, credentials)
        summary = {"calendar": check_calendar(calendar), "gmail": check_gmail(gmail)}
    except HttpError as error:
        fail(f"HTTP {error.resp.status} from {error.uri}: {error.content[:500]!r}")
    except SystemExit:
        raise
    except Exception as error:  # anything else is a failure of the stand-in or of this check
        fail(f"{type(error).__name__}: {error}")
    print(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":
    main()

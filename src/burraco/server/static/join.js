// Join links (docs/server.md "The lobby"): /table/{id}?join=SEAT claims an open seat with
// POST /api/tables/{id}/seats/{seat}/claim, once, and the page then plays it with the token the
// claim handed out, kept in the tab's sessionStorage as a creator's link keeps it.

export const seatKey = (tableId) => `burraco-seat:${tableId}`;

// The address that claims open seat `seat` of a table, whole, to send to someone.
export function joinLink(tableId, seat) {
  return `${location.origin}/table/${encodeURIComponent(tableId)}?join=${seat}`;
}

// Claims the seat of the address's ?join, if it has one: the seat's credentials ({token, seat}),
// or null with `problem` told why (a seat claimed already: the page then watches). The ?join is
// taken out of the address either way, so that a reload does not claim again.
export async function claimFromAddress(tableId, problem) {
  const params = new URLSearchParams(location.search);
  const seat = params.get("join");
  if (seat === null) return null;
  params.delete("join");
  const rest = params.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : ""));
  try {
    const answer = await fetch(
      `/api/tables/${encodeURIComponent(tableId)}/seats/${encodeURIComponent(seat)}/claim`,
      { method: "POST" });
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
    const credentials = { token: body.token, seat: body.seat };
    sessionStorage.setItem(seatKey(tableId), JSON.stringify(credentials));
    return credentials;
  } catch (error) {
    problem(`Seat ${seat} could not be taken: ${error.message || error}. Watching the table.`);
    return null;
  }
}

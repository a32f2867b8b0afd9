// Join links (docs/server.md "The lobby"): /table/{id}?join=SEAT claims an open seat with
// POST /api/tables/{id}/seats/{seat}/claim, once, and the page then plays it with the token the
// claim handed out, kept in the tab's sessionStorage as a creator's link keeps it.

export const seatKey = (tableId) => `burraco-seat:${tableId}`;

// The address that claims open seat `seat` of a table, whole, to send to someone.
export function joinLink(tableId, seat) {
  return `${location.origin}/table/${encodeURIComponent(tableId)}?join=${seat}`;
}

// The credentials the page plays with: `held` (the tab's seat at this table already), or those of
// the seat of the address's ?join, claimed now ({token, seat}); null, with `problem` told why,
// for a seat that could not be claimed (claimed already: the page then watches). The ?join is
// taken out of the address either way, so that a reload does not claim again.
export async function claimFromAddress(tableId, problem, held) {
  const params = new URLSearchParams(location.search);
  const seat = params.get("join");
  if (seat === null) return held;
  params.delete("join");
  const rest = params.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : ""));
  if (held) return held; // this tab plays a seat of the table already
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

"""The web guard the kiosk's app and the club director's app share (issue 35): one floor below both.

An edge such as `club` imports `core` at most and never the kiosk, so what both servers need against the network
lives here, importing nothing of the project (docs/LAYOUT.md):

- `clients`: who is asking (loopback = the appliance's own screen; proxy headers are never believed by default;
  the unit wrong PINs are counted by).
- `origin`: a page of another site (its Origin) can neither open a WebSocket nor change anything (every POST,
  PUT, PATCH and DELETE, with or without a body).
- `body`: the request body's size and time limit, and the one shape of every refusal.
- `pin`: the control PIN (a salted scrypt hash) and its limiter: per device, and for all remote devices
  together, fair to a device that gives the right PIN.
- `bounded`: at most N expensive requests at once; more are answered 429 at once.
- `server`: uvicorn as both apps run it: head time-out, connections counted while open (HTTP and WebSocket)
  and released when closed, the owner's own screen never refused.
"""

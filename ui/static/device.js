// Two Streamlit custom components (v2) that run on the reader's device; ui/device.py mounts them.
//
// device_krr: one button per answer. A click draws the answer the device reports with k-ary
//   randomized response and sends only that index: setTriggerValue("reported", j). The true
//   answer t is used for the draw and kept nowhere: not sent, not logged, not written to the
//   page, the address or a cookie.
// device_cookie: writes one cookie of this site (Path=/, SameSite=Strict, Secure on https).
//
// The component is mounted in the app's own document (in a shadow root), not in an iframe.

// The index j reported for the true answer t and a uniform u in [0, 1): the inverse CDF of
// the k-RR distribution, P(j = t) = p and P(j = i) = q for each i ≠ t. ui/device.py's
// reported_for is the same function, operation for operation (the same sums of doubles).
export function reportedFor(t, u, p, q, k) {
  let acc = 0;
  for (let j = 0; j < k; j++) {
    acc += j === t ? p : q;
    if (u < acc) return j;
  }
  return k - 1; // only if rounding left p + (k - 1)q a hair below u
}

// A uniform u in [0, 1) from one 32-bit value of the browser's cryptographic generator.
function uniform() {
  return crypto.getRandomValues(new Uint32Array(1))[0] / 4294967296;
}

function krr({ data, parentElement, setTriggerValue }) {
  const { labels, p, q, sent, question } = data;
  const group = parentElement.querySelector(".device-krr");
  group.setAttribute("role", "group");
  if (question) group.setAttribute("aria-label", question);
  else group.removeAttribute("aria-label");
  const buttons = labels.map((label, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    if (sent !== null) {
      // Already sent (this or an earlier session): locked, the answer that was sent marked.
      button.disabled = true;
      if (index === sent) {
        button.classList.add("sent");
        button.setAttribute("aria-current", "true");
      }
    } else {
      button.addEventListener("click", () => send(index));
    }
    return button;
  });
  group.replaceChildren(...buttons);

  let done = false;
  function send(t) {
    if (done) return;
    done = true;
    for (const button of buttons) button.disabled = true; // the same for every t
    setTriggerValue("reported", reportedFor(t, uniform(), p, q, labels.length));
  }
}

function cookie({ data }) {
  const { name, value, maxAge } = data;
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie =
    `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Strict${secure}`;
}

export default function (component) {
  if (component.name === "device_krr") return krr(component);
  if (component.name === "device_cookie") return cookie(component);
}

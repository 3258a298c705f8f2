// Verification page: scanning the product's NFC tag with Web NFC (NDEFReader), and the buyer's claim by tap. The
// page works without this script; it only adds what needs Web NFC, and only where the browser has it.
const SEAL_MARKS = {
  authentic: 'M15 27 l7 7 l15 -16',
  replayed: 'M26 14 v15 M26 36 v2',
  forged: 'M18 18 l16 16 M34 18 l-16 16',
  unverifiable: 'M26 14 v15 M26 36 v2',
};

const main = document.getElementById('main');
const texts = JSON.parse(document.getElementById('page-texts').textContent);
const scanSection = document.getElementById('scan-section');
const scanButton = document.getElementById('scan');
const scanStatus = document.getElementById('scan-status');
const unavailable = document.getElementById('nfc-unavailable');
const verdict = document.getElementById('verdict');
const explicitLanguage = main.dataset.langExplicit === 'true' ? main.dataset.lang : undefined;
const envHeaders = main.dataset.env === 'test' ? { 'x-service-env': 'test' } : {};

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

function say(text) {
  scanStatus.textContent = text;
}

function showVerdict(result) {
  verdict.className = `verdict verdict--${result.verdict}`;
  verdict.dataset.verdict = result.verdict;
  document.getElementById('verdict-title').textContent = result.title;
  document.getElementById('verdict-message').textContent = result.message;
  const time = document.createElement('time');
  time.dateTime = result.checkedAt;
  time.textContent = new Date(result.checkedAt).toLocaleString(main.dataset.lang);
  const [before, after = ''] = texts.checkedAt.split('{time}');
  document.getElementById('verdict-time').replaceChildren(before, time, after);
  // Restart the seal's animation with the new mark.
  const seal = verdict.querySelector('.seal');
  const fresh = seal.cloneNode(true);
  fresh.querySelector('.seal__mark').setAttribute('d', SEAL_MARKS[result.verdict]);
  seal.replaceWith(fresh);
  document.getElementById('verification-count').textContent = result.verificationCount.toLocaleString(
    main.dataset.lang,
  );
}

async function verify(url) {
  say(texts.nfc.checking);
  verdict.classList.add('verdict--checking');
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const endpoint = main.dataset.env === 'test' ? '/test/verify/tap' : '/verify/tap';
  const body = explicitLanguage ? { url, lang: explicitLanguage } : { url };
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  const result = await response.json();
  verdict.classList.remove('verdict--checking');
  if (!response.ok) {
    say(result.detail || texts.nfc.failed);
    return;
  }
  if (result.gtin !== main.dataset.gtin || result.serial !== main.dataset.serial) {
    // Another product's tag: show that product's passport.
    window.location.assign(result.location);
    return;
  }
  history.replaceState(null, '', result.location);
  showVerdict(result);
  say(fill(texts.nfc.again, { verdict: result.title }));
}

function urlOf(message) {
  for (const record of message.records) {
    if (record.recordType === 'url' || record.recordType === 'absolute-url') {
      return new TextDecoder().decode(record.data);
    }
  }
  return undefined;
}

/** Reads one tag: resolves with the URL it holds (or undefined), rejects when NFC is refused or missing. */
function readTag(onWaiting, onReadError) {
  return new Promise((resolve, reject) => {
    const controller = new AbortController();
    const reader = new NDEFReader();
    reader.onreadingerror = onReadError;
    reader.onreading = (event) => {
      controller.abort();
      resolve(urlOf(event.message));
    };
    reader.scan({ signal: controller.signal }).then(onWaiting, reject);
  });
}

function nfcError(error) {
  return error && error.name === 'NotAllowedError' ? texts.nfc.denied : texts.nfc.unavailable;
}

async function scan() {
  scanButton.disabled = true;
  try {
    const url = await readTag(
      () => say(texts.nfc.hold),
      () => say(texts.nfc.readError),
    );
    scanButton.disabled = false;
    if (!url) {
      say(texts.nfc.noUrl);
      return;
    }
    try {
      await verify(url);
    } catch {
      verdict.classList.remove('verdict--checking');
      say(texts.nfc.offline);
    }
  } catch (error) {
    scanButton.disabled = false;
    say(nfcError(error));
  }
}

// The buyer's claim (docs/resale.md): sign in, ask for a challenge, then a tap of the product's own tag made after it.
async function claim(event) {
  event.preventDefault();
  const form = event.target;
  const status = document.getElementById('claim-status');
  const button = document.getElementById('claim');
  const sayClaim = (text) => {
    status.textContent = text;
  };
  button.disabled = true;
  try {
    sayClaim(texts.owner.claimSigningIn);
    const json = { 'content-type': 'application/json', accept: 'application/json', ...envHeaders };
    const login = await fetch('/v1/auth/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: form.email.value, password: form.password.value }),
    });
    if (!login.ok) {
      sayClaim(texts.owner.signInFailed);
      return;
    }
    const { token } = await login.json();
    const auth = { ...json, authorization: `Bearer ${token}` };
    // The server's challenge first: only a tap read after it can claim (a link captured earlier cannot).
    const challenged = await fetch('/v1/dpp/claim/challenge', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ tokenId: main.dataset.serial }),
    });
    const challenge = await challenged.json();
    if (!challenged.ok) {
      sayClaim(
        fill(texts.owner.claimRefused, { reason: challenge.detail || challenge.title || challenged.status }),
      );
      return;
    }
    const nfcData = await readTag(
      () => sayClaim(texts.owner.claimHold),
      () => sayClaim(texts.nfc.readError),
    );
    if (!nfcData) {
      sayClaim(texts.nfc.noUrl);
      return;
    }
    sayClaim(texts.owner.claimSending);
    const claimed = await fetch('/v1/dpp/claim', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ tokenId: main.dataset.serial, nfcData, challengeId: challenge.challengeId }),
    });
    const answer = await claimed.json();
    if (!claimed.ok) {
      sayClaim(fill(texts.owner.claimRefused, { reason: answer.detail || answer.title || claimed.status }));
      return;
    }
    form.hidden = true;
    document.getElementById('action-claim').dataset.claimed = 'true';
    sayClaim(texts.owner.claimDone);
  } catch (error) {
    const nfc = error && (error.name === 'NotAllowedError' || error.name === 'NotSupportedError');
    sayClaim(nfc ? nfcError(error) : texts.nfc.offline);
  } finally {
    button.disabled = false;
  }
}

if ('NDEFReader' in window && scanSection) {
  scanSection.hidden = false;
  unavailable.hidden = true;
  scanButton.addEventListener('click', scan);
  const claimForm = document.getElementById('claim-form');
  if (claimForm) {
    claimForm.hidden = false;
    document.getElementById('claim-needs-nfc').hidden = true;
    claimForm.addEventListener('submit', claim);
  }
}

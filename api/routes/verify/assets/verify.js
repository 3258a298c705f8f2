// Verification page: scanning the product's NFC tag with Web NFC (NDEFReader). The page works without this
// script; it only adds the "Scan the tag" button where the browser can read NFC tags.
const SEAL_MARKS = {
  authentic: 'M15 27 l7 7 l15 -16',
  replayed: 'M26 14 v15 M26 36 v2',
  forged: 'M18 18 l16 16 M34 18 l-16 16',
  unverifiable: 'M26 14 v15 M26 36 v2',
};

const main = document.getElementById('main');
const scanButton = document.getElementById('scan');
const scanStatus = document.getElementById('scan-status');
const unavailable = document.getElementById('nfc-unavailable');
const verdict = document.getElementById('verdict');

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
  time.textContent = `${new Date(result.checkedAt).toLocaleString()}`;
  const when = document.getElementById('verdict-time');
  when.replaceChildren('Tag checked ', time, '.');
  // Restart the seal's animation with the new mark.
  const seal = verdict.querySelector('.seal');
  const fresh = seal.cloneNode(true);
  fresh.querySelector('.seal__mark').setAttribute('d', SEAL_MARKS[result.verdict]);
  seal.replaceWith(fresh);
  document.getElementById('verification-count').textContent = String(result.verificationCount);
}

async function verify(url) {
  say('Checking the tag’s signature…');
  verdict.classList.add('verdict--checking');
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const endpoint = main.dataset.env === 'test' ? '/test/verify/tap' : '/verify/tap';
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ url }) });
  const result = await response.json();
  verdict.classList.remove('verdict--checking');
  if (!response.ok) {
    say(result.detail || 'This tag could not be checked.');
    return;
  }
  if (result.gtin !== main.dataset.gtin || result.serial !== main.dataset.serial) {
    // Another product's tag: show that product's passport.
    window.location.assign(result.location);
    return;
  }
  history.replaceState(null, '', result.location);
  showVerdict(result);
  say(`${result.title}. You can scan again.`);
}

function urlOf(message) {
  for (const record of message.records) {
    if (record.recordType === 'url' || record.recordType === 'absolute-url') {
      return new TextDecoder().decode(record.data);
    }
  }
  return undefined;
}

async function scan() {
  scanButton.disabled = true;
  const controller = new AbortController();
  try {
    const reader = new NDEFReader();
    reader.onreadingerror = () => say('The tag could not be read. Hold the phone still against the tag.');
    reader.onreading = async (event) => {
      controller.abort();
      scanButton.disabled = false;
      const url = urlOf(event.message);
      if (!url) {
        say('This tag holds no web address. It is not a passport tag.');
        return;
      }
      try {
        await verify(url);
      } catch {
        verdict.classList.remove('verdict--checking');
        say('The check failed: no connection to the passport service. Try again.');
      }
    };
    await reader.scan({ signal: controller.signal });
    say('Hold your phone to the tag on the product…');
  } catch (error) {
    scanButton.disabled = false;
    say(error && error.name === 'NotAllowedError' ? 'NFC permission was refused.' : 'NFC is not available.');
  }
}

if ('NDEFReader' in window) {
  scanButton.hidden = false;
  unavailable.hidden = true;
  scanButton.addEventListener('click', scan);
}

// Passkeys on the sign-in pages: each form marked data-passkey runs a WebAuthn ceremony with
// the options the server put in it, then posts the credential as JSON in a normal form
// submission (the server answers with the next page or the redirect back to the application).
(function () {
  'use strict';
  var enc = function (buffer) {
    var bytes = new Uint8Array(buffer);
    var text = '';
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  var dec = function (value) {
    var text = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes.buffer;
  };
  var withIds = function (list) {
    return (list || []).map(function (c) {
      return { type: c.type, id: dec(c.id), transports: c.transports };
    });
  };
  var publicKey = function (ceremony, o) {
    var options = Object.assign({}, o, { challenge: dec(o.challenge) });
    if (ceremony === 'create') {
      options.user = Object.assign({}, o.user, { id: dec(o.user.id) });
      options.excludeCredentials = withIds(o.excludeCredentials);
    } else {
      options.allowCredentials = withIds(o.allowCredentials);
    }
    return options;
  };
  var asJson = function (credential) {
    var r = credential.response;
    var response = { clientDataJSON: enc(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = enc(r.attestationObject);
      if (r.getTransports) response.transports = r.getTransports();
    } else {
      response.authenticatorData = enc(r.authenticatorData);
      response.signature = enc(r.signature);
      if (r.userHandle) response.userHandle = enc(r.userHandle);
    }
    return {
      id: credential.id,
      rawId: enc(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: response,
    };
  };
  var supported = !!(window.PublicKeyCredential && navigator.credentials);
  document.querySelectorAll('.no-passkey').forEach(function (p) {
    p.hidden = supported;
  });
  if (!supported) return;
  document.querySelectorAll('form[data-passkey]').forEach(function (form) {
    var ceremony = form.getAttribute('data-passkey');
    var alert = form.querySelector('[role=alert]');
    var button = form.querySelector('button');
    form.hidden = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      alert.hidden = true;
      button.disabled = true;
      var options = publicKey(ceremony, JSON.parse(form.getAttribute('data-options')));
      var asked =
        ceremony === 'create'
          ? navigator.credentials.create({ publicKey: options })
          : navigator.credentials.get({ publicKey: options });
      asked
        .then(function (credential) {
          form.querySelector('input[name=credential]').value = JSON.stringify(asJson(credential));
          HTMLFormElement.prototype.submit.call(form);
        })
        .catch(function () {
          alert.textContent = form.getAttribute('data-failed');
          alert.hidden = false;
          button.disabled = false;
        });
    });
  });
})();

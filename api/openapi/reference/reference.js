/* global document, window, SwaggerUIBundle */
/*
 * Starts Swagger UI on /docs with this service's /openapi.json. Served as a file so the page's
 * Content-Security-Policy can forbid inline scripts.
 */
(function () {
  'use strict';

  // This file is served at <root>/docs/assets/reference.js, so the service's root is two levels up
  // (with the path a proxy puts in front of it, if any).
  var root = new URL('../../', document.currentScript.src);
  var here = root.href.replace(/\/$/, '');
  var mount = document.getElementById('reference');

  /*
   * Where "Try it out" sends its calls. The document names BASE_URL, the public address: when this
   * page was loaded from that origin (a browser behind the operator's proxy), it is kept as it is.
   * Otherwise (the service reached directly, by another name or port, as in tests or a local run)
   * the calls go where this page came from: they could not reach another origin anyway, as the
   * policy allows connections to this one only.
   */
  function servedHere(server) {
    var sameOrigin = new URL(server.url, root).origin === window.location.origin;
    return sameOrigin ? server : Object.assign({}, server, { url: here });
  }

  function withServersHere(node) {
    if (Array.isArray(node.servers)) node.servers = node.servers.map(servedHere);
  }

  function showProblem(text) {
    var message = document.createElement('p');
    message.className = 'reference-problem';
    message.textContent = text;
    mount.replaceChildren(message);
  }

  fetch(new URL('openapi.json', root), { headers: { Accept: 'application/json' } })
    .then(function (response) {
      if (!response.ok) throw new Error('/openapi.json answered ' + response.status);
      return response.json();
    })
    .then(function (spec) {
      withServersHere(spec);
      Object.values(spec.paths || {}).forEach(function (pathItem) {
        withServersHere(pathItem);
        Object.values(pathItem).forEach(function (operation) {
          if (operation && typeof operation === 'object') withServersHere(operation);
        });
      });
      SwaggerUIBundle({
        spec: spec,
        domNode: mount,
        // Swagger UI's own layout without its top bar (a box to load any other document by URL).
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout',
        // No badge fetched from swagger.io: nothing leaves this service.
        validatorUrl: null,
        // Never read a document URL or settings from this page's query string.
        queryConfigEnabled: false,
        deepLinking: true,
        displayOperationId: true,
        displayRequestDuration: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
      });
    })
    .catch(function (error) {
      showProblem('The API description could not be loaded: ' + error.message);
    });
})();

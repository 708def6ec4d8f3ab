// Starts Swagger UI on the service's own OpenAPI document, whose URL the page names (same origin).
// A file of its own because the page's Content-Security-Policy runs no inline script.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    // never ask validator.swagger.io about the document: nothing leaves the origin
    validatorUrl: null,
  });
})();

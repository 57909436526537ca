/**
 * The code a shop pastes into its page: the versioned widget file with its SRI hash (from the
 * widget build's manifest) and crossorigin, the element the widget shows in, and the form field
 * the buyer's choice is written to, both declared in the code itself; the shop's publishable key
 * filled in. Byte for byte what the browser test puts into a page of another origin.
 */
export interface SnippetInput {
  /** Where the service answers (the dashboard's own origin). */
  serviceOrigin: string;
  file: string;
  integrity: string;
  publicKey: string;
  locale: 'ru' | 'en';
}

export function widgetSnippet(input: SnippetInput): string {
  const product = input.locale === 'en' ? 'Mug' : 'Кружка';
  return `<div id="delivery"></div>
<input type="hidden" name="delivery_selection" id="delivery-selection">
<script src="${input.serviceOrigin}/widget/v1/${input.file}" integrity="${input.integrity}" crossorigin="anonymous"></script>
<script>
  (function () {
    var field = document.getElementById('delivery-selection');
    var widget = DeliveryWidget.mount('#delivery', {
      publicKey: '${input.publicKey}',
      locale: '${input.locale}',
      products: [{ name: '${product}', price: 1000, count: 1, weight: 0.5, width: 10, height: 10, length: 15 }],
      map: 'none'
    });
    widget.on('select', function (choice) { field.value = choice.token; });
    widget.on('change', function (tab) { field.value = tab.selection ? tab.selection.token : ''; });
    widget.on('city-not-found', function () { field.value = ''; });
  })();
</script>
`;
}

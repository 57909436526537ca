/**
 * The buyer's returns page, rendered on the server: data in, HTML out (pure, no I/O). Phone
 * first (one column, large controls), the shop's brand (its name, colour and logo), Russian or
 * English. It works as a plain form; the one small script (/site/returns/returns.js) adds the
 * photos and keeps the buyer on the page when the service refuses. Every value is escaped.
 */
import { escapeHtml, formatDay } from '../tracking-page/page.js';
import type { Brand, Lang, OrderPageView, PageReturn, ShopPageView } from './buyer.js';
import { MAX_PHOTOS } from './photos.js';
import { REASON_NAMES } from './rules.js';

export const SCRIPT_PATH = '/site/returns/returns.js';

const TEXT = {
  ru: {
    title: 'Возврат товаров',
    lookupIntro: 'Введите номер заказа и телефон, указанный при заказе.',
    number: 'Номер заказа',
    phone: 'Телефон',
    find: 'Найти заказ',
    notFound: 'Не нашли доставленный заказ с таким номером и телефоном. Проверьте их и попробуйте ещё раз.',
    order: 'Заказ',
    until: 'Вернуть можно до',
    closed: 'Срок возврата по этому заказу истёк или возвращать больше нечего.',
    choose: '1. Что вернуть',
    count: 'Количество',
    reason: 'Причина',
    comment: 'Комментарий (необязательно)',
    photos: `Фото товара (необязательно, до ${MAX_PHOTOS}, JPEG/PNG/HEIC до 5 МБ)`,
    way: '2. Как отправить',
    wayNames: { point: 'В пункте выдачи', courier: 'Курьер заберёт', post: 'На почте' },
    point: 'Пункт',
    free: 'Бесплатно для вас',
    youPay: 'Оплачиваете вы',
    shopPays: 'Оплачивает магазин',
    submit: '3. Оформить возврат',
    faults: 'Если товар с браком, повреждён или не тот — доставку возврата оплачивает магазин.',
    noWays: 'Магазин пока не принимает возвраты этим способом: свяжитесь с магазином.',
    yourReturns: 'Ваши возвраты',
    code: 'Код возврата',
    statuses: {
      requested: 'На рассмотрении у магазина',
      approved: 'Одобрен — отправьте посылку',
      refused: 'Отклонён',
      cancelled: 'Отменён',
      in_transit: 'В пути к магазину',
      received: 'Получен магазином',
      closed: 'Завершён',
    },
    todo: {
      point: 'Упакуйте товар, принесите в пункт и покажите код или QR-код.',
      courier: 'Упакуйте товар: курьер позвонит и заберёт посылку, покажите ему код.',
      post: 'Упакуйте товар, принесите на почту и назовите код возврата.',
    },
    wait: 'Когда магазин одобрит возврат, здесь появится, куда отнести посылку.',
    refund: 'К возврату',
    cost: 'Доставка возврата',
    lang: 'English',
    other: 'en',
    missingTitle: 'Страница не найдена',
    missing: 'По этой ссылке ничего не найдено. Проверьте, что ссылка скопирована целиком, или обратитесь в магазин.',
    tooMany: 'Слишком много попыток. Подождите минуту и попробуйте снова.',
    logId: 'Код обращения',
    sending: 'Отправляем…',
  },
  en: {
    title: 'Return goods',
    lookupIntro: 'Enter the order number and the phone given with the order.',
    number: 'Order number',
    phone: 'Phone',
    find: 'Find the order',
    notFound: 'No delivered order with this number and phone was found. Check them and try again.',
    order: 'Order',
    until: 'Returns accepted until',
    closed: 'The return period of this order has ended, or nothing is left to return.',
    choose: '1. What to return',
    count: 'Quantity',
    reason: 'Reason',
    comment: 'Comment (optional)',
    photos: `Photos of the goods (optional, up to ${MAX_PHOTOS}, JPEG/PNG/HEIC up to 5 MB)`,
    way: '2. How to send it',
    wayNames: { point: 'At a pickup point', courier: 'A courier collects it', post: 'At the post office' },
    point: 'Point',
    free: 'Free for you',
    youPay: 'You pay',
    shopPays: 'The shop pays',
    submit: '3. Request the return',
    faults: 'If the goods are defective, damaged or not what you ordered, the shop pays for the return delivery.',
    noWays: 'The shop takes no returns this way yet: please contact the shop.',
    yourReturns: 'Your returns',
    code: 'Return code',
    statuses: {
      requested: 'Waiting for the shop',
      approved: 'Approved: send the parcel',
      refused: 'Refused',
      cancelled: 'Cancelled',
      in_transit: 'On its way to the shop',
      received: 'Received by the shop',
      closed: 'Closed',
    },
    todo: {
      point: 'Pack the goods, bring them to the point and show the code or the QR code.',
      courier: 'Pack the goods: the courier calls and collects the parcel; show the code.',
      post: 'Pack the goods, bring them to the post office and give the return code.',
    },
    wait: 'Once the shop approves the return, this page says where to bring the parcel.',
    refund: 'Refund',
    cost: 'Return delivery',
    lang: 'Русский',
    other: 'ru',
    missingTitle: 'Page not found',
    missing: 'Nothing is found at this link. Check that the whole link was copied, or ask the shop.',
    tooMany: 'Too many attempts. Wait a minute and try again.',
    logId: 'Reference for support',
    sending: 'Sending…',
  },
} as const;

const LOCALE: Record<Lang, string> = { ru: 'ru-RU', en: 'en-GB' };

function money(amount: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE[lang], {
    style: 'currency',
    currency: 'RUB',
    currencyDisplay: 'narrowSymbol',
    maximumFractionDigits: 2,
  }).format(amount);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f2f4f7;color:#1d2433;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:560px;margin:0 auto;padding:12px 12px 32px}
header{display:flex;justify-content:space-between;align-items:center;gap:12px;margin:4px 0 12px;border-top:4px solid var(--brand);padding-top:10px}
header img{max-height:32px;max-width:140px}
h1{font-size:20px;margin:0}
h2{font-size:16px;margin:0 0 10px}
section{background:#fff;border-radius:12px;padding:14px;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.lang{font-size:14px;color:var(--brand)}
.muted{color:#5b6475;font-size:14px}
label{display:block;font-size:14px;color:#5b6475;margin:8px 0 4px}
input,select,textarea{width:100%;font:inherit;padding:10px;border:1px solid #c9cfd9;border-radius:8px;background:#fff;min-height:44px}
textarea{min-height:64px}
button{width:100%;font:inherit;font-weight:600;padding:12px;border:0;border-radius:8px;background:var(--brand);color:#fff;min-height:48px;margin-top:12px}
.item{border-top:1px solid #e6e9ef;padding:10px 0}
.item:first-of-type{border-top:0}
.item .name{font-weight:600;overflow-wrap:anywhere}
.row{display:grid;grid-template-columns:5.5em 1fr;gap:8px}
.option{border:1px solid #c9cfd9;border-radius:10px;padding:10px;margin:8px 0;display:block}
.option input[type=radio]{width:auto;min-height:0;margin:0 8px 0 0}
.option .price{float:right;font-weight:600}
.error{background:#fdecec;color:#9b1c1c;border-radius:8px;padding:10px;margin:0 0 12px}
.code{font:700 24px/1.2 ui-monospace,Menlo,monospace;letter-spacing:.08em}
.qr svg{width:168px;height:168px;display:block;margin:8px 0}
.status{font-weight:600}
`;

function layout(lang: Lang, brand: Brand, title: string, body: string, withScript: boolean): string {
  const text = TEXT[lang];
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}">`
    : `<strong>${escapeHtml(brand.name)}</strong>`;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${title} — ${brand.name}`)}</title>
<style>:root{--brand:${escapeHtml(brand.color)}}${STYLE}</style>
</head>
<body>
<main>
<header>${logo}<a class="lang" href="?lang=${text.other}" hreflang="${text.other}">${text.lang}</a></header>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${withScript ? `<script src="${SCRIPT_PATH}" defer></script>` : ''}
</body>
</html>
`;
}

export function renderShopPage(view: ShopPageView): string {
  const text = TEXT[view.lang];
  const body = `${view.notFound ? `<p class="error" role="alert">${escapeHtml(text.notFound)}</p>` : ''}
<section>
<p class="muted">${escapeHtml(text.lookupIntro)}</p>
<form method="post" action="${escapeHtml(`${view.action}?lang=${view.lang}`)}">
<label for="number">${escapeHtml(text.number)}</label>
<input id="number" name="number" required maxlength="100" autocomplete="off" value="${escapeHtml(view.number)}">
<label for="phone">${escapeHtml(text.phone)}</label>
<input id="phone" name="phone" type="tel" required maxlength="30" autocomplete="tel" placeholder="+7 900 000-00-00">
<button type="submit">${escapeHtml(text.find)}</button>
</form>
</section>`;
  return layout(view.lang, view.brand, text.title, body, false);
}

function returnSection(item: PageReturn, lang: Lang): string {
  const text = TEXT[lang];
  const { view } = item;
  const lines = view.lines
    .map(
      (line) =>
        `<li>${escapeHtml(line.name ?? '')} × ${line.count} — ${escapeHtml(REASON_NAMES[line.reason][lang])}</li>`,
    )
    .join('');
  const live = view.status === 'approved' || view.status === 'in_transit';
  const where = item.point
    ? `<p><strong>${escapeHtml(item.point.name)}</strong><br>${escapeHtml(item.point.address)}</p>`
    : '';
  return `<section class="return" data-code="${escapeHtml(view.code)}">
<p class="status">${escapeHtml(text.statuses[view.status])}</p>
<p class="muted">${escapeHtml(text.code)}</p>
<p class="code">${escapeHtml(view.code)}</p>
${live ? `<div class="qr" role="img" aria-label="${escapeHtml(text.code)}">${item.qrSvg}</div><p>${escapeHtml(text.todo[view.way])}</p>${where}<p class="muted">${escapeHtml(item.companyName)}</p>` : ''}
${view.status === 'requested' ? `<p class="muted">${escapeHtml(text.wait)}</p>` : ''}
${view.refusalReason ? `<p>${escapeHtml(view.refusalReason)}</p>` : ''}
<ul>${lines}</ul>
<p class="muted">${escapeHtml(text.cost)}: ${escapeHtml(view.payer === 'shop' ? text.shopPays : money(view.cost, lang))} · ${escapeHtml(text.refund)}: ${escapeHtml(money(view.refundSum, lang))}</p>
</section>`;
}

export function renderOrderPage(view: OrderPageView): string {
  const text = TEXT[view.lang];
  const lang = view.lang;
  const head = `<p class="muted">${escapeHtml(text.order)} ${escapeHtml(view.orderNumber)}${view.lastDay && view.open ? ` · ${escapeHtml(text.until)} ${escapeHtml(formatDay(view.lastDay, lang))}` : ''}</p>`;
  const returns = view.returns.length
    ? `<h2>${escapeHtml(text.yourReturns)}</h2>${view.returns.map((item) => returnSection(item, lang)).join('\n')}`
    : '';
  if (!view.open)
    return layout(
      lang,
      view.brand,
      text.title,
      `${head}${returns}<section><p>${escapeHtml(text.closed)}</p></section>`,
      false,
    );
  const reasons = view.reasons
    .map((reason) => `<option value="${reason}">${escapeHtml(REASON_NAMES[reason][lang])}</option>`)
    .join('');
  const items = view.lines
    .filter((line) => line.returnable > 0)
    .map((line, index) => {
      const counts = Array.from(
        { length: line.returnable + 1 },
        (_, count) => `<option value="${count}">${count}</option>`,
      ).join('');
      const name = (field: string) => `lines[${index}][${field}]`;
      return `<div class="item" data-line="${line.line}">
<input type="hidden" name="${name('line')}" value="${line.line}">
<div class="name">${escapeHtml(line.name)}</div>
<div class="muted">${escapeHtml(money(line.price, lang))}${line.vendorCode ? ` · ${escapeHtml(line.vendorCode)}` : ''}</div>
<div class="row">
<div><label for="count-${line.line}">${escapeHtml(text.count)}</label><select id="count-${line.line}" name="${name('count')}">${counts}</select></div>
<div><label for="reason-${line.line}">${escapeHtml(text.reason)}</label><select id="reason-${line.line}" name="${name('reason')}">${reasons}</select></div>
</div>
<label for="comment-${line.line}">${escapeHtml(text.comment)}</label>
<textarea id="comment-${line.line}" name="${name('comment')}" maxlength="1000"></textarea>
</div>`;
    })
    .join('\n');
  const options = view.options.length
    ? view.options
        .map((option, index) => {
          const key = `${option.way}-${option.companyId}`;
          const price =
            option.payer === 'shop' || option.cost === 0
              ? text.free
              : `${text.youPay} ${money(option.cost ?? 0, lang)}`;
          const points = option.points.length
            ? `<label for="point-${key}">${escapeHtml(text.point)}</label><select id="point-${key}" name="point[${key}]">${option.points
                .map((point) => `<option value="${point.id}">${escapeHtml(`${point.name}, ${point.address}`)}</option>`)
                .join('')}</select>`
            : '';
          return `<label class="option"><input type="radio" name="option" value="${option.way}:${option.companyId}"${index === 0 ? ' checked' : ''}><strong>${escapeHtml(text.wayNames[option.way])}</strong> · ${escapeHtml(option.companyName)}<span class="price">${escapeHtml(price)}</span>${points}</label>`;
        })
        .join('\n')
    : `<p>${escapeHtml(text.noWays)}</p>`;
  const form = `<form id="return-form" method="post" action="${escapeHtml(`${view.action}?lang=${lang}`)}" data-sending="${escapeHtml(text.sending)}">
<section>
<h2>${escapeHtml(text.choose)}</h2>
${items}
<label for="photos">${escapeHtml(text.photos)}</label>
<input id="photos" type="file" accept="image/jpeg,image/png,image/webp,image/heic" multiple>
</section>
<section>
<h2>${escapeHtml(text.way)}</h2>
${options}
${view.shopPaysFaults && view.options.length ? `<p class="muted">${escapeHtml(text.faults)}</p>` : ''}
</section>
<p class="error" role="alert" id="form-error"${view.error ? '' : ' hidden'}>${escapeHtml(view.error ?? '')}</p>
${view.options.length ? `<button type="submit">${escapeHtml(text.submit)}</button>` : ''}
</form>`;
  return layout(lang, view.brand, text.title, `${head}${returns}${form}`, true);
}

export function renderMissingReturnsPage(lang: Lang, status: 404 | 429, logId: string): string {
  const text = TEXT[lang];
  const brand: Brand = { name: text.title, color: '#2457c5', logoUrl: null };
  return layout(
    lang,
    brand,
    text.missingTitle,
    `<section><p>${escapeHtml(status === 429 ? text.tooMany : text.missing)}</p><p class="muted">${escapeHtml(text.logId)}: ${escapeHtml(logId)}</p></section>`,
    false,
  );
}

/** A phone's photo above this is made smaller in the page before it is sent (a 12 MP JPEG is 3-5 MB). */
const SHRINK_ABOVE_BYTES = 1024 * 1024;
/** Its longer side after: enough to see a scratch or a label. */
const SHRINK_TO_PX = 2000;
/**
 * What the page's POST may carry: the script sends photos made smaller (a few hundred kB each),
 * the form's fields are small; a picture the browser cannot redraw (HEIC in Chromium) goes as it is
 * and meets this limit. Far below the 5 x 5 MB a return may hold, so the public page cannot be made
 * to read 35 MB bodies.
 */
export const PAGE_BODY_LIMIT_BYTES = 12 * 1024 * 1024;

/**
 * The page's one script: sends the form as JSON with the chosen photos (base64; a large one made
 * smaller first), shows a
 * refusal in place, and opens the page again with the new return's code. Without it the form
 * still posts (without photos).
 */
export const PAGE_SCRIPT = `(function(){
var f=document.getElementById('return-form');if(!f)return;
var err=document.getElementById('form-error');
function shrink(file){if(file.size<=${SHRINK_ABOVE_BYTES}||!window.createImageBitmap)return Promise.resolve(file);
return createImageBitmap(file).then(function(img){var k=Math.min(1,${SHRINK_TO_PX}/Math.max(img.width,img.height)),c=document.createElement('canvas');c.width=Math.round(img.width*k);c.height=Math.round(img.height*k);c.getContext('2d').drawImage(img,0,0,c.width,c.height);
return new Promise(function(ok){c.toBlob(function(b){ok(b&&b.size<file.size?b:file)},'image/jpeg',0.85)})}).catch(function(){return file})}
function read(file){return shrink(file).then(function(small){return new Promise(function(ok,no){var r=new FileReader();r.onload=function(){ok({data:String(r.result).split(',')[1]||''})};r.onerror=no;r.readAsDataURL(small)})})}
f.addEventListener('submit',function(e){e.preventDefault();
var b=f.querySelector('button');b.disabled=true;b.dataset.label=b.textContent;b.textContent=f.dataset.sending;
var lines=[].map.call(f.querySelectorAll('[data-line]'),function(d){return{line:+d.dataset.line,count:+d.querySelector('select[name$="[count]"]').value,reason:d.querySelector('select[name$="[reason]"]').value,comment:d.querySelector('textarea').value||null}});
var o=f.querySelector('input[name=option]:checked'),point={};
[].forEach.call(f.querySelectorAll('select[name^="point["]'),function(s){point[s.name.slice(6,-1)]=s.value});
var files=[].slice.call(document.getElementById('photos').files||[],0,${MAX_PHOTOS});
Promise.all(files.map(read)).then(function(photos){
return fetch(f.action,{method:'POST',headers:{'content-type':'application/json',accept:'application/json'},body:JSON.stringify({lines:lines,option:o?o.value:'',point:point,photos:photos})})
}).then(function(r){return r.json().then(function(j){if(r.ok){location.href=j.url;return}
err.textContent=(j.errors&&j.errors.length?j.errors.map(function(x){return x.message}).join('; '):j.message)||'';err.hidden=false;b.disabled=false;b.textContent=b.dataset.label})})
.catch(function(){err.hidden=false;b.disabled=false;b.textContent=b.dataset.label});
});
})();
`;

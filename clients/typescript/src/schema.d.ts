/**
 * Generated from the Partner API's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with `npm run client:generate` (a test fails while this file is stale).
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: 200 once migrations are done and the database answers */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 only while the process takes traffic (503 while migrating, stopping, or without its database) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The profile that owns the key */
        get: operations["getProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Wallet of the key's mode */
        get: operations["getWalletBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet-balance/alert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or clear the low-balance alert (wallet.balance_low when available falls below it) */
        put: operations["setWalletAlert"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The statement of the key's wallet: one line per order, refund, top-up or adjustment, newest first */
        get: operations["listWalletTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active operators */
        get: operations["listOperators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/operators/{operatorId}/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An operator's products */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active data packages priced for the key owner's role */
        get: operations["listDataPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/packages/{packageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One data package, with status */
        get: operations["getDataPackage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/result-checker/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active result-checker packages with live stock */
        get: operations["listResultCheckerPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/result-checker/buy-single": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy one result-checker credential from the wallet */
        post: operations["buyResultCheckerSingle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/result-checker/buy-bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy 1 to 20 result-checker credentials with one wallet debit */
        post: operations["buyResultCheckerBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/result-checker/orders/{orderId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your result-checker transactions; the credential once completed */
        get: operations["getResultCheckerTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-bundles/buy-single": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy a data bundle for one recipient */
        post: operations["buyDataSingle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-bundles/buy-bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Buy data bundles for 2 to 20 recipients (Agent, SuperAgent) */
        post: operations["buyDataBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/data-bundles/retry-recipient": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Charge and resubmit a failed recipient of a bulk order */
        post: operations["retryBulkRecipient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's orders, newest first */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One order, in full (bulk recipients included) */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders/{orderId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An order's status */
        get: operations["getOrderStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/top-ups/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ask for a wallet top-up (test mode: approved at once) */
        post: operations["requestTopUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/top-ups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your top-up requests in the key’s mode, newest first */
        get: operations["listTopUps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/top-ups/mobile-money": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Top up the wallet from a Mobile Money wallet through Paystack: credited once the payment is verified */
        post: operations["topUpByMobileMoney"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/top-ups/{topUpId}/otp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the OTP a Mobile Money charge in send_otp asks for */
        post: operations["submitTopUpOtp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/top-ups/{topUpId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of your top-ups (Mobile Money ones with their payment) */
        get: operations["getTopUp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your events in the key's mode, newest first (kept 30 days) */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event, with its deliveries to your endpoints and every attempt */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{eventId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an event again to each of your enabled endpoints that subscribe to its type */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook endpoints in the key's mode, newest first (no secrets) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Create a webhook endpoint (its signing secret is shown only in this answer) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook endpoint: it is disabled and its pending deliveries stop */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret; the old one keeps signing beside it for 24 hours */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "order.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.completed event
         * @description A single order, or a bulk order, reached `completed` (a bulk order: at least one recipient completed).
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.completed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.failed event
         * @description A single order, or a bulk order whose recipients all failed, reached `failed`; the wallet was refunded.
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.failed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.recipient.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.recipient.completed event
         * @description One recipient of a bulk order was delivered; `recipient` is its entry.
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.recipient.completed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_recipient_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.recipient.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.recipient.failed event
         * @description One recipient of a bulk order failed and was refunded; `recipient` is its entry.
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.recipient.failed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_recipient_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.recipient.reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.recipient.reversed event
         * @description Staff reversed one completed recipient of a bulk order: its amount was refunded; `recipient` is its entry (reversedAt and reversalReason set, status still completed).
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.recipient.reversed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_recipient_reversed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * order.reversed event
         * @description A completed order was refunded by staff (a bulk order: also when its last completed recipient was reversed on its own; a result checker: its credential was voided).
         *
         *     Sent by POST to each enabled endpoint subscribed to `order.reversed` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_order_reversed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "topup.approved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * topup.approved event
         * @description Staff approved a top-up request: the wallet was credited.
         *
         *     Sent by POST to each enabled endpoint subscribed to `topup.approved` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_topup_approved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "topup.rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * topup.rejected event
         * @description Staff rejected a top-up request.
         *
         *     Sent by POST to each enabled endpoint subscribed to `topup.rejected` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_topup_rejected"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.balance_low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * wallet.balance_low event
         * @description The available balance fell below the alert threshold (once per crossing).
         *
         *     Sent by POST to each enabled endpoint subscribed to `wallet.balance_low` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_wallet_balance_low"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "wallet.adjusted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * wallet.adjusted event
         * @description Staff credited or debited the wallet with a reason (an adjustment); `object` is the adjustment with the balances after it.
         *
         *     Sent by POST to each enabled endpoint subscribed to `wallet.adjusted` (or `*`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.
         */
        post: operations["webhook_wallet_adjusted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Every refusal: act on error.code, show error.message */
        ErrorEnvelope: {
            /** @constant */
            success: false;
            error: {
                /**
                 * @description What went wrong, for people (never a stack trace or SQL)
                 * @example Order ord_01kasq4d7mz8y3b2x6vw9n5r1t not found
                 */
                message: string;
                /**
                 * @description What went wrong, for programs: one of the documented codes (docs/errors.md)
                 * @example ORDER_NOT_FOUND
                 * @enum {string}
                 */
                code: "UNAUTHORIZED" | "INVALID_JSON" | "INVALID_REQUEST" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "PROFILE_NOT_FOUND" | "PROFILE_SUSPENDED" | "ORDER_NOT_FOUND" | "PACKAGE_NOT_FOUND" | "INVALID_ORDER_TYPE" | "TOPUP_REQUEST_FAILED" | "TOPUP_NOT_FOUND" | "TOPUP_METHOD_UNAVAILABLE" | "TOPUP_GATEWAY_FAILED" | "BUY_DATA_FAILED" | "BUY_DATA_BULK_FAILED" | "RC_WALLET_BUY_FAILED" | "RC_WALLET_BULK_BUY_FAILED" | "INTERNAL_ERROR" | "RATE_LIMITED" | "IDEMPOTENCY_KEY_INVALID" | "IDEMPOTENCY_KEY_REUSED" | "IDEMPOTENCY_KEY_IN_USE" | "EVENT_NOT_FOUND" | "WEBHOOK_ENDPOINT_INVALID" | "WEBHOOK_ENDPOINT_NOT_FOUND" | "BELOW_COST" | "ROUTE_NOT_OFFERED";
                /**
                 * @description The order the refusal is about (a repeated paymentReference)
                 * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                 */
                orderId?: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The id of this request (yours when you sent a sane `X-Request-Id`); quote it when you report a problem */
        "X-Request-Id": string;
        /** @description Requests left in the current window of your key and seconds until it resets (IETF RateLimit header fields) */
        RateLimit: string;
        /** @description The per-key limit: q requests per w seconds */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying (on 429, and on 409 IDEMPOTENCY_KEY_IN_USE) */
        "Retry-After": string;
        /** @description `true` when this is the stored answer to an earlier request with the same Idempotency-Key: nothing ran again */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description The service is up and its database answers
                         * @constant
                         */
                        status: "ok";
                    };
                };
            };
            /** @description Not ready, or not available here */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description ready, or why not: migrating, stopping, database_unreachable
                         * @example ready
                         */
                        status: "ready" | "migrating" | "stopping" | "database_unreachable";
                    };
                };
            };
            /** @description Not ready, or not available here */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description ready, or why not: migrating, stopping, database_unreachable
                         * @example ready
                         */
                        status: "ready" | "migrating" | "stopping" | "database_unreachable";
                    };
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Profile identifier
                             * @example usr_ama
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description User identifier
                             * @example usr_ama
                             */
                            userId: string;
                            /**
                             * @description First name
                             * @example Ama
                             */
                            firstName: string;
                            /**
                             * @description Middle name (may be empty)
                             * @example
                             */
                            middleName: string;
                            /**
                             * @description Last name
                             * @example Mensah
                             */
                            lastName: string;
                            /**
                             * @description Full name
                             * @example Ama Mensah
                             */
                            fullName: string;
                            /**
                             * @description Gender
                             * @example Female
                             */
                            gender: string;
                            /**
                             * @description Contact phone, local country format
                             * @example 0244000001
                             */
                            phoneNumber: string;
                            /**
                             * @description Contact e-mail
                             * @example ama.mensah@example.com
                             */
                            email: string;
                            /**
                             * @description Agent, SuperAgent, Customer or Staff: prices and permissions follow it
                             * @example SuperAgent
                             */
                            role: string;
                            /**
                             * @description Account status: Active, Suspended, others possible
                             * @example Active
                             */
                            status: string;
                            /**
                             * @description Dial code (may be empty)
                             * @example +233
                             */
                            countryCode: string;
                            /**
                             * @description ISO country code
                             * @example GH
                             */
                            countryISO: string;
                            /**
                             * @description Country name
                             * @example Ghana
                             */
                            countryName: string;
                            /**
                             * @description Unique referral code
                             * @example AMA001
                             */
                            referralCode: string;
                            /**
                             * @description Internal unique identifier
                             * @example usr_ama
                             */
                            uniqueId: string;
                            /**
                             * @description Id of the user that created the profile
                             * @example usr_ama
                             */
                            creatorId: string;
                            /**
                             * @description When the profile was registered
                             * @example 1764063000000
                             */
                            registeredAt: number;
                            /**
                             * @description Record creation timestamp
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last update
                             * @example 1764063000000
                             */
                            updatedAt: number;
                            /** @description Last update metadata */
                            updateMeta: {
                                /**
                                 * @description What the last update did
                                 * @example import
                                 */
                                action: string;
                                /**
                                 * @description Who made it
                                 * @example seed import
                                 */
                                name: string;
                                /**
                                 * @description Their user id
                                 * @example system
                                 */
                                userId: string;
                            };
                            /**
                             * @description Immediately spendable funds of the key's mode, GHS
                             * @example 482.6
                             */
                            walletAvailableBalance: number;
                            /**
                             * @description Funds reserved for pending orders, GHS
                             * @example 5.4
                             */
                            walletHeldBalance: number;
                            /**
                             * @description Available plus held, GHS
                             * @example 488
                             */
                            walletTotalBalance: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWalletBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Owner of the wallet (profile id)
                             * @example usr_ama
                             */
                            userProfileId: string;
                            /**
                             * @description Spendable, GHS
                             * @example 482.6
                             */
                            availableBalance: number;
                            /**
                             * @description Reserved for pending orders, GHS
                             * @example 5.4
                             */
                            heldBalance: number;
                            /**
                             * @description Available plus held, GHS
                             * @example 488
                             */
                            totalBalance: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description Unix ms of the last balance change
                             * @example 1764063000000
                             */
                            lastUpdated: number;
                            alertThreshold: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setWalletAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "threshold": 50
                 *     }
                 */
                "application/json": {
                    threshold: number | null;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Owner of the wallet (profile id)
                             * @example usr_ama
                             */
                            userProfileId: string;
                            /**
                             * @description Spendable, GHS
                             * @example 482.6
                             */
                            availableBalance: number;
                            /**
                             * @description Reserved for pending orders, GHS
                             * @example 5.4
                             */
                            heldBalance: number;
                            /**
                             * @description Available plus held, GHS
                             * @example 488
                             */
                            totalBalance: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description Unix ms of the last balance change
                             * @example 1764063000000
                             */
                            lastUpdated: number;
                            alertThreshold: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST`, `INVALID_JSON` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWalletTransactions: {
        parameters: {
            query?: {
                /**
                 * @description Unix ms: only lines at or after it
                 * @example 1764000000000
                 */
                from?: string;
                /**
                 * @description Unix ms: only lines before it (exclusive)
                 * @example 1764086400000
                 */
                to?: string;
                /**
                 * @description Page size: default 20; above 100 is capped
                 * @example 20
                 */
                limit?: string;
                /** @description continueCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The lines of the key's wallet, newest first */
                            transactions: {
                                /**
                                 * @description Line id (stable)
                                 * @example txn_1042
                                 */
                                id: string;
                                /** @description order: a purchase charged; refund: money back for an order; topup; adjustment by staff; opening balance */
                                type: "order" | "refund" | "topup" | "adjustment" | "opening";
                                /**
                                 * @description When the money moved
                                 * @example 1764063000000
                                 */
                                createdAt: number;
                                /**
                                 * @description What the line is, in words
                                 * @example Data bundle 1GB for 0244123456 (order 7KQ2M9)
                                 */
                                description: string;
                                /** @description debit takes from the balance, credit adds to it */
                                direction: "debit" | "credit";
                                /**
                                 * @description GHS, signed: negative for a debit
                                 * @example -5.4
                                 */
                                amount: number;
                                /**
                                 * @description Available balance after the line, GHS
                                 * @example 482.6
                                 */
                                balanceAfter: number;
                                orderId: string | null;
                                shortReference: string | null;
                                beneficiaryMsisdn: string | null;
                                packageName: string | null;
                                topUpId: string | null;
                                adjustmentId: string | null;
                            }[];
                            /**
                             * @description true when there are no more pages
                             * @example true
                             */
                            isDone: boolean;
                            /**
                             * @description Pass as cursor to get the next page
                             * @example WzE3NjQwNjMwMDAwMDAsIjEwNDIiXQ
                             */
                            continueCursor: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listOperators: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description Active operators */
                        data: {
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            _id: string;
                            /**
                             * @description Internal operator code
                             * @example MTN
                             */
                            code: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            name: string;
                            /**
                             * @description Active or Inactive
                             * @example Active
                             */
                            status: string;
                            /**
                             * @description The network its bundles are for (MTN, TELECEL or AT): a recipient's number of another network by its prefix is refused unless allowPortedNumber is sent; null: numbers are not checked
                             * @example MTN
                             */
                            network: ("MTN" | "TELECEL" | "AT") | null;
                        }[];
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description operators id
                 * @example op_mtn
                 */
                operatorId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description The operator's products */
                        data: {
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            _id: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            name: string;
                            /**
                             * @description Parent operator
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Name of the parent operator
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Available or Unavailable
                             * @example Available
                             */
                            status: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listDataPackages: {
        parameters: {
            query?: {
                /**
                 * @description Only packages of this operator (operators id)
                 * @example op_mtn
                 */
                operatorId?: string;
                /**
                 * @description Only packages of this product (products id)
                 * @example prd_mtn_data
                 */
                productId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description Active data packages priced for the key owner's role */
                        data: {
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            _id: string;
                            /**
                             * @description Human-readable description
                             * @example MTN 1GB (30 days)
                             */
                            label: string;
                            /**
                             * @description Bundle size text
                             * @example 1GB
                             */
                            dataAmount: string;
                            /**
                             * @description Validity in days, as a string
                             * @example 30
                             */
                            validity: string;
                            /**
                             * @description Effective price for the role of the key owner, GHS
                             * @example 5.4
                             */
                            price: number;
                            /**
                             * @description Parent operator
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Name of the parent operator
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Parent product
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Name of the parent product
                             * @example MTN Data
                             */
                            productName: string;
                        }[];
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDataPackage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description packages id
                 * @example pkg_mtn_1gb
                 */
                packageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            _id: string;
                            /**
                             * @description Human-readable description
                             * @example MTN 1GB (30 days)
                             */
                            label: string;
                            /**
                             * @description Bundle size text
                             * @example 1GB
                             */
                            dataAmount: string;
                            /**
                             * @description Validity in days, as a string
                             * @example 30
                             */
                            validity: string;
                            /**
                             * @description Effective price for the role of the key owner, GHS
                             * @example 5.4
                             */
                            price: number;
                            /**
                             * @description Parent operator
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Name of the parent operator
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Parent product
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Name of the parent product
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Active or Inactive (Inactive when it, its product or its operator is not sellable)
                             * @example Active
                             */
                            status: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `PACKAGE_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listResultCheckerPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Result-checker package id
                             * @example rcp_wassce
                             */
                            _id: string;
                            /**
                             * @description Internal package code
                             * @example WASSCE
                             */
                            code: string;
                            /**
                             * @description Package name
                             * @example WASSCE Result Checker
                             */
                            name: string;
                            /**
                             * @description UI display name
                             * @example WASSCE
                             */
                            displayName: string;
                            description: string | null;
                            /**
                             * @description GHS per credential, for the key owner's role
                             * @example 17.5
                             */
                            price: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description Credentials in stock (unassigned live credentials)
                             * @example 240
                             */
                            stockAvailable: number;
                            priority: number | null;
                            checkLimit: number | null;
                            includesPdf: boolean | null;
                        }[];
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    buyResultCheckerSingle: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The package (rcPackages id)
                     * @example rcp_wassce
                     */
                    packageId: string;
                    /**
                     * @description Recipient Ghana mobile number, any common format; normalised to 233…
                     * @example 0244123456
                     */
                    recipientPhone: string;
                    /**
                     * @description true: run every check of the purchase (key, role, catalog, numbers, network, in-flight, stock, wallet balance) and answer whether it would go through, without buying: nothing is held, charged, written or kept with an Idempotency-Key
                     * @example true
                     */
                    validateOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description The transaction (rcTransactions id): GET /result-checker/orders/{orderId}/status reads it
                             * @example rc_01kasqa1b3d5f7h9k1m3n5q7s9
                             */
                            transactionId: string;
                            /**
                             * @description User-friendly reference
                             * @example RC4TN8W2QJ
                             */
                            shortReference: string;
                            /** @description The result-checker credential */
                            credential: {
                                /**
                                 * @description Checker username (serial)
                                 * @example WAS0012345
                                 */
                                username: string;
                                /**
                                 * @description Checker PIN
                                 * @example 4821-7730-1956
                                 */
                                password: string;
                            };
                            /**
                             * @description Always completed: credentials are issued at once
                             * @constant
                             */
                            status: "completed";
                        } | {
                            /**
                             * @description This was a dry run: nothing was bought
                             * @constant
                             */
                            validateOnly: true;
                            /**
                             * @description The purchase would go through now (one that would not answers its error instead)
                             * @constant
                             */
                            valid: true;
                            /**
                             * @description GHS the purchase would debit
                             * @example 17.5
                             */
                            amountCharged: number;
                            /**
                             * @description Available balance now, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the purchase, were it made now
                             * @example 470.5
                             */
                            walletBalanceAfter: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `RC_WALLET_BUY_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Insufficient wallet balance: `RC_WALLET_BUY_FAILED` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED`, `RC_WALLET_BUY_FAILED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `RC_WALLET_BUY_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    buyResultCheckerBulk: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 20 items (outside that: 400) */
                    items: {
                        /**
                         * @description rcPackages id
                         * @example rcp_wassce
                         */
                        packageId: string;
                        /**
                         * @description Recipient Ghana mobile number, any common format; normalised to 233…
                         * @example 0244123456
                         */
                        recipientPhone: string;
                    }[];
                    /**
                     * @description true: run every check of the purchase (key, role, catalog, numbers, network, in-flight, stock, wallet balance) and answer whether it would go through, without buying: nothing is held, charged, written or kept with an Idempotency-Key
                     * @example true
                     */
                    validateOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The items that got a credential */
                            transactions: {
                                /**
                                 * @description rcTransactions id
                                 * @example rc_01kasqa1b3d5f7h9k1m3n5q7s9
                                 */
                                transactionId: string;
                                /**
                                 * @description Normalised recipient phone
                                 * @example 233244123456
                                 */
                                recipientPhone: string;
                                /** @description The result-checker credential */
                                credential: {
                                    /**
                                     * @description Checker username (serial)
                                     * @example WAS0012345
                                     */
                                    username: string;
                                    /**
                                     * @description Checker PIN
                                     * @example 4821-7730-1956
                                     */
                                    password: string;
                                };
                            }[];
                            /** @description The items that failed (refunded); empty when all succeeded */
                            failures: {
                                /**
                                 * @description Position of the item in the request (from 0)
                                 * @example 1
                                 */
                                index: number;
                                /**
                                 * @description The package of the item
                                 * @example rcp_bece
                                 */
                                packageId: string;
                                /**
                                 * @description As given in the request
                                 * @example 0201234567
                                 */
                                recipientPhone: string;
                                /** @description Why this item failed; it was refunded */
                                error: {
                                    /**
                                     * @description Why it failed
                                     * @example RC_WALLET_BULK_BUY_FAILED
                                     */
                                    code: string;
                                    /**
                                     * @description For people
                                     * @example No BECE credential in stock
                                     */
                                    message: string;
                                };
                            }[];
                            /**
                             * @description GHS finally charged (failed items refunded)
                             * @example 17.5
                             */
                            totalAmount: number;
                            /**
                             * @description Always completed
                             * @constant
                             */
                            status: "completed";
                        } | {
                            /**
                             * @description This was a dry run: nothing was bought
                             * @constant
                             */
                            validateOnly: true;
                            /**
                             * @description The purchase would go through now (one that would not answers its error instead)
                             * @constant
                             */
                            valid: true;
                            /**
                             * @description GHS the purchase would finally charge (items that would fail are not charged)
                             * @example 17.5
                             */
                            totalAmount: number;
                            /**
                             * @description Available balance now, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the purchase, were it made now
                             * @example 470.5
                             */
                            walletBalanceAfter: number;
                            /** @description The items that would fail, as the purchase would list them; empty when none */
                            failures: {
                                /**
                                 * @description Position of the item in the request (from 0)
                                 * @example 1
                                 */
                                index: number;
                                /**
                                 * @description The package of the item
                                 * @example rcp_bece
                                 */
                                packageId: string;
                                /**
                                 * @description As given in the request
                                 * @example 0201234567
                                 */
                                recipientPhone: string;
                                /** @description Why this item failed; it was refunded */
                                error: {
                                    /**
                                     * @description Why it failed
                                     * @example RC_WALLET_BULK_BUY_FAILED
                                     */
                                    code: string;
                                    /**
                                     * @description For people
                                     * @example No BECE credential in stock
                                     */
                                    message: string;
                                };
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid request: `RC_WALLET_BULK_BUY_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Insufficient wallet balance: `RC_WALLET_BULK_BUY_FAILED` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED`, `RC_WALLET_BULK_BUY_FAILED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `RC_WALLET_BULK_BUY_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getResultCheckerTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description rcTransactions id
                 * @example rc_01kasqa1b3d5f7h9k1m3n5q7s9
                 */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description rcTransactions record id
                             * @example rc_01kasqa1b3d5f7h9k1m3n5q7s9
                             */
                            _id: string;
                            /**
                             * @description User-friendly reference
                             * @example RC4TN8W2QJ
                             */
                            shortReference: string;
                            /**
                             * @description pending, completed or failed
                             * @example completed
                             */
                            state: string;
                            paymentGatewayStatus: string | null;
                            /**
                             * @description GHS charged
                             * @example 17.5
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description Package name
                             * @example WASSCE Result Checker
                             */
                            packageName: string;
                            /**
                             * @description Recipient phone
                             * @example 233244123456
                             */
                            buyerPhone: string;
                            credential: {
                                /**
                                 * @description Checker username (serial)
                                 * @example WAS0012345
                                 */
                                username: string;
                                /**
                                 * @description Checker PIN
                                 * @example 4821-7730-1956
                                 */
                                password: string;
                            } | null;
                            /**
                             * @description When it was bought
                             * @example 1764063000000
                             */
                            createdAt: number;
                            completedAt: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `ORDER_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    buyDataSingle: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The package to buy (packages id)
                     * @example pkg_mtn_1gb
                     */
                    packageId: string;
                    /**
                     * @description Its parent product (products id)
                     * @example prd_mtn_data
                     */
                    productId: string;
                    /**
                     * @description Its parent operator (operators id)
                     * @example op_mtn
                     */
                    operatorId: string;
                    /**
                     * @description Recipient Ghana mobile number in any common format (0244123456, +233 24 412 3456, 233244123456); normalised to 233…. Sandbox test numbers: ending 0000 fails, 0001 slow, 0002 refused, 0003 provider times out twice, 0004 poll error; others complete
                     * @example 0244123456
                     */
                    beneficiaryMsisdn: string;
                    /**
                     * @description Optional offline-first reference of yours, unique per profile and mode: a repeat is 409 and charges nothing
                     * @example INV-2026-00417
                     */
                    paymentReference?: string;
                    /**
                     * @description In the shared schema; not typically used with API keys
                     * @example anon_5d1c9e
                     */
                    anonymousId?: string;
                    /**
                     * @description true: skip the network check of beneficiaryMsisdn (a number ported from the network of its prefix to the operator's); docs/api.md, "The number's network"
                     * @example true
                     */
                    allowPortedNumber?: boolean;
                    /**
                     * @description true: run every check of the purchase (key, role, catalog, numbers, network, in-flight, stock, wallet balance) and answer whether it would go through, without buying: nothing is held, charged, written or kept with an Idempotency-Key
                     * @example true
                     */
                    validateOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Always true (inside the envelope, as the contract has it)
                             * @constant
                             */
                            success: true;
                            /**
                             * @description The new order: poll GET /orders/{orderId}/status, or wait for order.completed / order.failed
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            orderId: string;
                            /**
                             * @description User-friendly reference
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description What happened, for people
                             * @example Order accepted: MTN 1GB (30 days) for 233244123456 is being delivered
                             */
                            message: string;
                            /**
                             * @description GHS taken from the available balance (held until delivery)
                             * @example 5.4
                             */
                            amountCharged: number;
                            /**
                             * @description Always processing: the outcome comes later
                             * @constant
                             */
                            status: "processing";
                            /**
                             * @description Available balance before the charge, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the charge: before minus amountCharged
                             * @example 482.6
                             */
                            walletBalanceAfter: number;
                        } | {
                            /**
                             * @description This was a dry run: nothing was bought
                             * @constant
                             */
                            validateOnly: true;
                            /**
                             * @description The purchase would go through now (one that would not answers its error instead)
                             * @constant
                             */
                            valid: true;
                            /**
                             * @description GHS the purchase would take from the available balance
                             * @example 5.4
                             */
                            amountCharged: number;
                            /**
                             * @description Available balance now, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the purchase, were it made now
                             * @example 482.6
                             */
                            walletBalanceAfter: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `BUY_DATA_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Insufficient wallet balance: `BUY_DATA_FAILED` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `BUY_DATA_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    buyDataBulk: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description operators id (every item is of this operator)
                     * @example op_mtn
                     */
                    operatorId: string;
                    /**
                     * @description products id (every item is of this product)
                     * @example prd_mtn_data
                     */
                    productId: string;
                    /** @description 2 to 20 recipients (outside that: 422) */
                    items: {
                        /**
                         * @description packages id
                         * @example pkg_mtn_1gb
                         */
                        packageId: string;
                        /**
                         * @description Recipient Ghana mobile number, any common format; each number at most once
                         * @example 0244123456
                         */
                        beneficiaryMsisdn: string;
                        /**
                         * @description true: skip the network check of this item's number (a number ported from the network of its prefix to the operator's); docs/api.md, "The number's network"
                         * @example true
                         */
                        allowPortedNumber?: boolean;
                    }[];
                    /**
                     * @description true: run every check of the purchase (key, role, catalog, numbers, network, in-flight, stock, wallet balance) and answer whether it would go through, without buying: nothing is held, charged, written or kept with an Idempotency-Key
                     * @example true
                     */
                    validateOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Always true (inside the envelope)
                             * @constant
                             */
                            success: true;
                            /**
                             * @description What happened, for people
                             * @example Bulk order accepted: 2 recipients are being delivered
                             */
                            message: string;
                            /**
                             * @description The parent order
                             * @example ord_01kasq7h2c4e6g8j0k2m4p6r8s
                             */
                            orderId: string;
                            /**
                             * @description User-friendly reference
                             * @example DB3HX8P2WM
                             */
                            shortReference: string;
                            /**
                             * @description GHS for all recipients, held until each is delivered
                             * @example 15.8
                             */
                            totalAmount: number;
                            /**
                             * @description Recipients in the order
                             * @example 2
                             */
                            recipientCount: number;
                            /**
                             * @description Always processing: each recipient is delivered on its own
                             * @constant
                             */
                            status: "processing";
                            /**
                             * @description Available balance before the charge, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the charge: before minus totalAmount
                             * @example 472.2
                             */
                            walletBalanceAfter: number;
                        } | {
                            /**
                             * @description This was a dry run: nothing was bought
                             * @constant
                             */
                            validateOnly: true;
                            /**
                             * @description The purchase would go through now (one that would not answers its error instead)
                             * @constant
                             */
                            valid: true;
                            /**
                             * @description GHS the purchase would hold for all recipients
                             * @example 15.8
                             */
                            totalAmount: number;
                            /**
                             * @description Recipients in the order
                             * @example 2
                             */
                            recipientCount: number;
                            /**
                             * @description Available balance now, GHS
                             * @example 488
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the purchase, were it made now
                             * @example 472.2
                             */
                            walletBalanceAfter: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `BUY_DATA_BULK_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Insufficient wallet balance: `BUY_DATA_BULK_FAILED` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED`, `BUY_DATA_BULK_FAILED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `BUY_DATA_BULK_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `BUY_DATA_BULK_FAILED`, `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryBulkRecipient: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "orderId": "ord_01kasq7h2c4e6g8j0k2m4p6r8s",
                 *       "beneficiaryMsisdn": "0244120000"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The bulk order (orders id)
                     * @example ord_01kasq7h2c4e6g8j0k2m4p6r8s
                     */
                    orderId: string;
                    /**
                     * @description The failed recipient, any common format
                     * @example 0244120000
                     */
                    beneficiaryMsisdn: string;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Always true (inside the envelope)
                             * @constant
                             */
                            success: true;
                            /**
                             * @description What happened, for people
                             * @example Recipient 233244120000 resubmitted (attempt 2)
                             */
                            message: string;
                            /**
                             * @description The bulk order, back to processing
                             * @example ord_01kasq7h2c4e6g8j0k2m4p6r8s
                             */
                            orderId: string;
                            /**
                             * @description User-friendly reference of the bulk order
                             * @example DB3HX8P2WM
                             */
                            shortReference: string;
                            /**
                             * @description The recipient, normalised
                             * @example 233244120000
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description GHS charged again for this recipient: the package's current price for the caller's role
                             * @example 5.4
                             */
                            amountCharged: number;
                            /**
                             * @description GHS the recipient's previous charge was (refunded when it failed)
                             * @example 5.4
                             */
                            previousAmount: number;
                            /**
                             * @description True when amountCharged differs from previousAmount: the package's price changed since; the message says so too
                             * @example false
                             */
                            priceChanged: boolean;
                            /**
                             * @description 2 for the first retry
                             * @example 2
                             */
                            attempt: number;
                            /**
                             * @description Always processing
                             * @constant
                             */
                            status: "processing";
                            /**
                             * @description Available balance before the charge, GHS
                             * @example 477.6
                             */
                            walletBalanceBefore: number;
                            /**
                             * @description Available balance after the charge
                             * @example 472.2
                             */
                            walletBalanceAfter: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `BUY_DATA_BULK_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Insufficient wallet balance: `BUY_DATA_BULK_FAILED` */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED`, `BUY_DATA_BULK_FAILED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `ORDER_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `BUY_DATA_BULK_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                /**
                 * @description data and result_checker by default; one of airtime, voice, afa, registration, top_up, result_checker, data, or all
                 * @example data
                 */
                orderType?: string;
                /**
                 * @description Only orders in this state: pending, processing, completed, failed, reversed
                 * @example completed
                 */
                state?: string;
                /**
                 * @description Page size: default 20; above 100 is capped at 100
                 * @example 20
                 */
                limit?: string;
                /** @description continueCursor of the previous page */
                cursor?: string;
                /**
                 * @description Your own order with this paymentReference, if any: a list of at most one (to learn whether a timed-out purchase was taken)
                 * @example INV-2026-00417
                 */
                paymentReference?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The caller's orders, newest first */
                            orders: {
                                /**
                                 * @description Order record id
                                 * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                                 */
                                _id: string;
                                /**
                                 * @description Record creation timestamp (fractional allowed)
                                 * @example 1764063000000
                                 */
                                _creationTime: number;
                                /**
                                 * @description When the order was taken
                                 * @example 1764063000000
                                 */
                                createdAt: number;
                                /**
                                 * @description Last change (a failed order: when it failed)
                                 * @example 1764063003150
                                 */
                                updatedAt: number;
                                /**
                                 * @description User-friendly alphanumeric reference, to read out over the phone
                                 * @example DB7KQ2M9XH
                                 */
                                shortReference: string;
                                /**
                                 * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                                 * @example 233244123456
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Operator id
                                 * @example op_mtn
                                 */
                                operatorId: string;
                                /**
                                 * @description Operator name
                                 * @example MTN Ghana
                                 */
                                operatorName: string;
                                /**
                                 * @description Product id
                                 * @example prd_mtn_data
                                 */
                                productId: string;
                                /**
                                 * @description Product name
                                 * @example MTN Data
                                 */
                                productName: string;
                                /**
                                 * @description Package id
                                 * @example pkg_mtn_1gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label
                                 * @example MTN 1GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description GHS charged to the wallet (a bulk order: the total held at creation)
                                 * @example 5.4
                                 */
                                amount: number;
                                /**
                                 * @description Always GHS
                                 * @constant
                                 */
                                currency: "GHS";
                                /**
                                 * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                                 * @example completed
                                 */
                                state: string;
                                /**
                                 * @description data, airtime, voice, afa, registration, top_up, result_checker
                                 * @example data
                                 */
                                orderType: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                isBulkOrder: boolean | null;
                                bulkRecipients: {
                                    /**
                                     * @description Recipient phone, international format
                                     * @example 233244123457
                                     */
                                    beneficiaryMsisdn: string;
                                    /**
                                     * @description Package bought for this recipient
                                     * @example pkg_mtn_2gb
                                     */
                                    packageId: string;
                                    /**
                                     * @description Display label of the package
                                     * @example MTN 2GB (30 days)
                                     */
                                    packageLabel: string;
                                    /**
                                     * @description Charged for this recipient (latest attempt), GHS
                                     * @example 10.4
                                     */
                                    amount: number;
                                    /**
                                     * @description pending, processing, completed, failed (lower case)
                                     * @example completed
                                     */
                                    status: string;
                                    errorMessage: string | null;
                                    submittedAt: number | null;
                                    completedAt: number | null;
                                    reversedAt: number | null;
                                    reversalReason: string | null;
                                }[] | null;
                                bulkCompletedCount: number | null;
                                bulkFailedCount: number | null;
                                walletBalanceBefore: number | null;
                                walletBalanceAfter: number | null;
                            }[];
                            /**
                             * @description true when there are no more pages
                             * @example true
                             */
                            isDone: boolean;
                            /**
                             * @description Pass as cursor to get the next page
                             * @example WzE3NjQwNjMwMDAwMDAsIm9yZF8wMWthc3E0ZDdteiJd
                             */
                            continueCursor: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST`, `INVALID_ORDER_TYPE` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description orders id
                 * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                 */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `ORDER_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOrderStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description orders id
                 * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                 */
                orderId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description The order (orders id)
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            orderId: string;
                            /**
                             * @description Record creation timestamp
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description Pending, Processing, Completed, Failed, Reversed (capitalised, unlike the order record)
                             * @example Completed
                             */
                            state: string;
                            /**
                             * @description User-friendly reference
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description GHS charged
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            errorMessage: string | null;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            submittedAt: number | null;
                            completedAt: number | null;
                            /**
                             * @description true for a bulk order
                             * @example false
                             */
                            isBulkOrder: boolean;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `ORDER_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    requestTopUp: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 500,
                 *       "method": "momo",
                 *       "reference": "MOMO-2611240931",
                 *       "note": "Sent from 0244000001"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description GHS, more than 0, at most 100000, at most two decimals
                     * @example 500
                     */
                    amount: number;
                    /** @description How you paid: mobile money or bank transfer */
                    method: "momo" | "bank";
                    /**
                     * @description The payer's transaction reference (unique per profile)
                     * @example MOMO-2611240931
                     */
                    reference: string;
                    note?: string | null;
                };
            };
        };
        responses: {
            /** @description Created: the new record is in `data` */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `TOPUP_REQUEST_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `TOPUP_REQUEST_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTopUps: {
        parameters: {
            query?: {
                /**
                 * @description Only top-ups with this status
                 * @example pending
                 */
                status?: "pending" | "approved" | "rejected";
                /**
                 * @description Page size: default 20; above 100 is capped
                 * @example 20
                 */
                limit?: number;
                /** @description continueCursor of a previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Your top-up requests in the key's mode, newest first */
                            topUps: {
                                /**
                                 * @description Top-up id
                                 * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                                 */
                                _id: string;
                                /**
                                 * @description GHS asked for
                                 * @example 500
                                 */
                                amount: number;
                                /**
                                 * @description Always GHS
                                 * @constant
                                 */
                                currency: "GHS";
                                /** @description How you paid: mobile money or bank transfer */
                                method: "momo" | "bank";
                                /**
                                 * @description The payer's transaction reference
                                 * @example MOMO-2611240931
                                 */
                                reference: string;
                                note: string | null;
                                /** @description pending until staff decide; approved (wallet credited once) or rejected */
                                status: "pending" | "approved" | "rejected";
                                /**
                                 * @description When it was asked for
                                 * @example 1764063000000
                                 */
                                createdAt: number;
                                decidedAt: number | null;
                                rejectionReason: string | null;
                                payment: {
                                    /**
                                     * @description The payment gateway
                                     * @constant
                                     */
                                    gateway: "paystack";
                                    /**
                                     * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                     * @example pay_offline
                                     */
                                    status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                    /**
                                     * @description What to tell the payer
                                     * @example Please complete authorization process on your mobile phone
                                     */
                                    displayText: string;
                                    /**
                                     * @description The number charged, 233…
                                     * @example 233551234987
                                     */
                                    phone: string;
                                    /**
                                     * @description Mobile Money network
                                     * @example MTN
                                     */
                                    network: "MTN" | "TELECEL" | "AT";
                                } | null;
                            }[];
                            /**
                             * @description true when there are no more pages
                             * @example true
                             */
                            isDone: boolean;
                            /**
                             * @description Pass as cursor to get the next page
                             * @example WzE3NjQwNjMwMDAwMDAsInR1cF8wMWthc3FjNGY2aCJd
                             */
                            continueCursor: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `TOPUP_REQUEST_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    topUpByMobileMoney: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 100,
                 *       "phone": "0551234987"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description GHS, at least MOMO_TOPUP_MIN (1) and at most MOMO_TOPUP_MAX (5000), at most two decimals
                     * @example 100
                     */
                    amount: number;
                    /**
                     * @description The Mobile Money number to charge
                     * @example 0551234987
                     */
                    phone: string;
                    /**
                     * @description Needed only for a number outside its network's prefixes
                     * @example MTN
                     */
                    network?: "MTN" | "TELECEL" | "AT";
                };
            };
        };
        responses: {
            /** @description Created: the new record is in `data` */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `TOPUP_REQUEST_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `TOPUP_REQUEST_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The payment gateway refused or could not be reached: `TOPUP_GATEWAY_FAILED` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not ready, or not available here: `TOPUP_METHOD_UNAVAILABLE` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    submitTopUpOtp: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description Top-up id
                 * @example tup_01kasqc4f6h8j2k4m6n8p0r2s4
                 */
                topUpId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "otp": "123456"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The OTP the payer received
                     * @example 123456
                     */
                    otp: string;
                };
            };
        };
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `TOPUP_REQUEST_FAILED`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `TOPUP_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `TOPUP_REQUEST_FAILED`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The payment gateway refused or could not be reached: `TOPUP_GATEWAY_FAILED` */
            502: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not ready, or not available here: `TOPUP_METHOD_UNAVAILABLE` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTopUp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Top-up id
                 * @example tup_01kasqc4f6h8j2k4m6n8p0r2s4
                 */
                topUpId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
            /** @description Invalid request: `TOPUP_REQUEST_FAILED` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `TOPUP_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /**
                 * @description Only events of this type
                 * @example order.completed
                 */
                type?: string;
                /**
                 * @description Page size: default 20; above 100 is capped
                 * @example 20
                 */
                limit?: string;
                /** @description continueCursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Your events in the key's mode, newest first */
                            events: {
                                /**
                                 * @description evt_…; also the webhook-id of every delivery of it
                                 * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                                 */
                                _id: string;
                                /**
                                 * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                                 * @example order.completed
                                 */
                                type: string;
                                /**
                                 * @description When the change happened
                                 * @example 1764063003150
                                 */
                                createdAt: number;
                                /** @description The mode of the record (and of the keys that see it) */
                                mode: "live" | "test";
                                /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                                data: {
                                    /** @description An order as GET /orders/{orderId}, a top-up as in GET /top-ups, the wallet as GET /wallet-balance, or a staff adjustment of the wallet (wallet.adjusted) */
                                    object: {
                                        /**
                                         * @description Order record id
                                         * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                                         */
                                        _id: string;
                                        /**
                                         * @description Record creation timestamp (fractional allowed)
                                         * @example 1764063000000
                                         */
                                        _creationTime: number;
                                        /**
                                         * @description When the order was taken
                                         * @example 1764063000000
                                         */
                                        createdAt: number;
                                        /**
                                         * @description Last change (a failed order: when it failed)
                                         * @example 1764063003150
                                         */
                                        updatedAt: number;
                                        /**
                                         * @description User-friendly alphanumeric reference, to read out over the phone
                                         * @example DB7KQ2M9XH
                                         */
                                        shortReference: string;
                                        /**
                                         * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                                         * @example 233244123456
                                         */
                                        beneficiaryMsisdn: string;
                                        /**
                                         * @description Operator id
                                         * @example op_mtn
                                         */
                                        operatorId: string;
                                        /**
                                         * @description Operator name
                                         * @example MTN Ghana
                                         */
                                        operatorName: string;
                                        /**
                                         * @description Product id
                                         * @example prd_mtn_data
                                         */
                                        productId: string;
                                        /**
                                         * @description Product name
                                         * @example MTN Data
                                         */
                                        productName: string;
                                        /**
                                         * @description Package id
                                         * @example pkg_mtn_1gb
                                         */
                                        packageId: string;
                                        /**
                                         * @description Display label
                                         * @example MTN 1GB (30 days)
                                         */
                                        packageLabel: string;
                                        /**
                                         * @description GHS charged to the wallet (a bulk order: the total held at creation)
                                         * @example 5.4
                                         */
                                        amount: number;
                                        /**
                                         * @description Always GHS
                                         * @constant
                                         */
                                        currency: "GHS";
                                        /**
                                         * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                                         * @example completed
                                         */
                                        state: string;
                                        /**
                                         * @description data, airtime, voice, afa, registration, top_up, result_checker
                                         * @example data
                                         */
                                        orderType: string;
                                        errorMessage: string | null;
                                        submittedAt: number | null;
                                        completedAt: number | null;
                                        isBulkOrder: boolean | null;
                                        bulkRecipients: {
                                            /**
                                             * @description Recipient phone, international format
                                             * @example 233244123457
                                             */
                                            beneficiaryMsisdn: string;
                                            /**
                                             * @description Package bought for this recipient
                                             * @example pkg_mtn_2gb
                                             */
                                            packageId: string;
                                            /**
                                             * @description Display label of the package
                                             * @example MTN 2GB (30 days)
                                             */
                                            packageLabel: string;
                                            /**
                                             * @description Charged for this recipient (latest attempt), GHS
                                             * @example 10.4
                                             */
                                            amount: number;
                                            /**
                                             * @description pending, processing, completed, failed (lower case)
                                             * @example completed
                                             */
                                            status: string;
                                            errorMessage: string | null;
                                            submittedAt: number | null;
                                            completedAt: number | null;
                                            reversedAt: number | null;
                                            reversalReason: string | null;
                                        }[] | null;
                                        bulkCompletedCount: number | null;
                                        bulkFailedCount: number | null;
                                        walletBalanceBefore: number | null;
                                        walletBalanceAfter: number | null;
                                    } | {
                                        /**
                                         * @description Top-up id
                                         * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                                         */
                                        _id: string;
                                        /**
                                         * @description GHS asked for
                                         * @example 500
                                         */
                                        amount: number;
                                        /**
                                         * @description Always GHS
                                         * @constant
                                         */
                                        currency: "GHS";
                                        /** @description How you paid: mobile money or bank transfer */
                                        method: "momo" | "bank";
                                        /**
                                         * @description The payer's transaction reference
                                         * @example MOMO-2611240931
                                         */
                                        reference: string;
                                        note: string | null;
                                        /** @description pending until staff decide; approved (wallet credited once) or rejected */
                                        status: "pending" | "approved" | "rejected";
                                        /**
                                         * @description When it was asked for
                                         * @example 1764063000000
                                         */
                                        createdAt: number;
                                        decidedAt: number | null;
                                        rejectionReason: string | null;
                                        payment: {
                                            /**
                                             * @description The payment gateway
                                             * @constant
                                             */
                                            gateway: "paystack";
                                            /**
                                             * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                             * @example pay_offline
                                             */
                                            status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                            /**
                                             * @description What to tell the payer
                                             * @example Please complete authorization process on your mobile phone
                                             */
                                            displayText: string;
                                            /**
                                             * @description The number charged, 233…
                                             * @example 233551234987
                                             */
                                            phone: string;
                                            /**
                                             * @description Mobile Money network
                                             * @example MTN
                                             */
                                            network: "MTN" | "TELECEL" | "AT";
                                        } | null;
                                    } | {
                                        /**
                                         * @description Owner of the wallet (profile id)
                                         * @example usr_ama
                                         */
                                        userProfileId: string;
                                        /**
                                         * @description Spendable, GHS
                                         * @example 482.6
                                         */
                                        availableBalance: number;
                                        /**
                                         * @description Reserved for pending orders, GHS
                                         * @example 5.4
                                         */
                                        heldBalance: number;
                                        /**
                                         * @description Available plus held, GHS
                                         * @example 488
                                         */
                                        totalBalance: number;
                                        /**
                                         * @description Always GHS
                                         * @constant
                                         */
                                        currency: "GHS";
                                        /**
                                         * @description Unix ms of the last balance change
                                         * @example 1764063000000
                                         */
                                        lastUpdated: number;
                                        alertThreshold: number | null;
                                    } | {
                                        /**
                                         * @description Adjustment id
                                         * @example adj_01jd6x4m2k8q9r7t5v3w1y0z2a
                                         */
                                        _id: string;
                                        /**
                                         * @description Owner of the wallet (profile id)
                                         * @example usr_ama
                                         */
                                        userProfileId: string;
                                        /** @description The wallet adjusted */
                                        mode: "live" | "test";
                                        /** @description credit adds to available, debit takes from it */
                                        direction: "credit" | "debit";
                                        /**
                                         * @description GHS moved
                                         * @example 25
                                         */
                                        amount: number;
                                        /**
                                         * @description Why staff adjusted the wallet
                                         * @example Duplicate charge on order 7KQ2M9
                                         */
                                        reason: string;
                                        /**
                                         * @description Available after the adjustment, GHS
                                         * @example 507.6
                                         */
                                        availableBalance: number;
                                        /**
                                         * @description Held after the adjustment, GHS
                                         * @example 5.4
                                         */
                                        heldBalance: number;
                                        /**
                                         * @description Unix ms the adjustment was requested
                                         * @example 1764063000000
                                         */
                                        createdAt: number;
                                        /**
                                         * @description Unix ms the money moved
                                         * @example 1764063000000
                                         */
                                        appliedAt: number;
                                    };
                                    /** @description order.recipient.* events: the bulk recipient entry the event is about */
                                    recipient?: {
                                        /**
                                         * @description Recipient phone, international format
                                         * @example 233244123457
                                         */
                                        beneficiaryMsisdn: string;
                                        /**
                                         * @description Package bought for this recipient
                                         * @example pkg_mtn_2gb
                                         */
                                        packageId: string;
                                        /**
                                         * @description Display label of the package
                                         * @example MTN 2GB (30 days)
                                         */
                                        packageLabel: string;
                                        /**
                                         * @description Charged for this recipient (latest attempt), GHS
                                         * @example 10.4
                                         */
                                        amount: number;
                                        /**
                                         * @description pending, processing, completed, failed (lower case)
                                         * @example completed
                                         */
                                        status: string;
                                        errorMessage: string | null;
                                        submittedAt: number | null;
                                        completedAt: number | null;
                                        reversedAt: number | null;
                                        reversalReason: string | null;
                                    };
                                };
                            }[];
                            /**
                             * @description true when there are no more pages
                             * @example true
                             */
                            isDone: boolean;
                            /**
                             * @description Pass as cursor to get the next page
                             * @example WzE3NjQwNjMwMDMxNTAsImV2dF8wMWthc3FkOGowIl0
                             */
                            continueCursor: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description event id (evt_…)
                 * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                 */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description evt_…; also the webhook-id of every delivery of it
                             * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                             */
                            _id: string;
                            /**
                             * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                             * @example order.completed
                             */
                            type: string;
                            /**
                             * @description When the change happened
                             * @example 1764063003150
                             */
                            createdAt: number;
                            /** @description The mode of the record (and of the keys that see it) */
                            mode: "live" | "test";
                            /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                            data: {
                                /** @description An order as GET /orders/{orderId}, a top-up as in GET /top-ups, the wallet as GET /wallet-balance, or a staff adjustment of the wallet (wallet.adjusted) */
                                object: {
                                    /**
                                     * @description Order record id
                                     * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                                     */
                                    _id: string;
                                    /**
                                     * @description Record creation timestamp (fractional allowed)
                                     * @example 1764063000000
                                     */
                                    _creationTime: number;
                                    /**
                                     * @description When the order was taken
                                     * @example 1764063000000
                                     */
                                    createdAt: number;
                                    /**
                                     * @description Last change (a failed order: when it failed)
                                     * @example 1764063003150
                                     */
                                    updatedAt: number;
                                    /**
                                     * @description User-friendly alphanumeric reference, to read out over the phone
                                     * @example DB7KQ2M9XH
                                     */
                                    shortReference: string;
                                    /**
                                     * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                                     * @example 233244123456
                                     */
                                    beneficiaryMsisdn: string;
                                    /**
                                     * @description Operator id
                                     * @example op_mtn
                                     */
                                    operatorId: string;
                                    /**
                                     * @description Operator name
                                     * @example MTN Ghana
                                     */
                                    operatorName: string;
                                    /**
                                     * @description Product id
                                     * @example prd_mtn_data
                                     */
                                    productId: string;
                                    /**
                                     * @description Product name
                                     * @example MTN Data
                                     */
                                    productName: string;
                                    /**
                                     * @description Package id
                                     * @example pkg_mtn_1gb
                                     */
                                    packageId: string;
                                    /**
                                     * @description Display label
                                     * @example MTN 1GB (30 days)
                                     */
                                    packageLabel: string;
                                    /**
                                     * @description GHS charged to the wallet (a bulk order: the total held at creation)
                                     * @example 5.4
                                     */
                                    amount: number;
                                    /**
                                     * @description Always GHS
                                     * @constant
                                     */
                                    currency: "GHS";
                                    /**
                                     * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                                     * @example completed
                                     */
                                    state: string;
                                    /**
                                     * @description data, airtime, voice, afa, registration, top_up, result_checker
                                     * @example data
                                     */
                                    orderType: string;
                                    errorMessage: string | null;
                                    submittedAt: number | null;
                                    completedAt: number | null;
                                    isBulkOrder: boolean | null;
                                    bulkRecipients: {
                                        /**
                                         * @description Recipient phone, international format
                                         * @example 233244123457
                                         */
                                        beneficiaryMsisdn: string;
                                        /**
                                         * @description Package bought for this recipient
                                         * @example pkg_mtn_2gb
                                         */
                                        packageId: string;
                                        /**
                                         * @description Display label of the package
                                         * @example MTN 2GB (30 days)
                                         */
                                        packageLabel: string;
                                        /**
                                         * @description Charged for this recipient (latest attempt), GHS
                                         * @example 10.4
                                         */
                                        amount: number;
                                        /**
                                         * @description pending, processing, completed, failed (lower case)
                                         * @example completed
                                         */
                                        status: string;
                                        errorMessage: string | null;
                                        submittedAt: number | null;
                                        completedAt: number | null;
                                        reversedAt: number | null;
                                        reversalReason: string | null;
                                    }[] | null;
                                    bulkCompletedCount: number | null;
                                    bulkFailedCount: number | null;
                                    walletBalanceBefore: number | null;
                                    walletBalanceAfter: number | null;
                                } | {
                                    /**
                                     * @description Top-up id
                                     * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                                     */
                                    _id: string;
                                    /**
                                     * @description GHS asked for
                                     * @example 500
                                     */
                                    amount: number;
                                    /**
                                     * @description Always GHS
                                     * @constant
                                     */
                                    currency: "GHS";
                                    /** @description How you paid: mobile money or bank transfer */
                                    method: "momo" | "bank";
                                    /**
                                     * @description The payer's transaction reference
                                     * @example MOMO-2611240931
                                     */
                                    reference: string;
                                    note: string | null;
                                    /** @description pending until staff decide; approved (wallet credited once) or rejected */
                                    status: "pending" | "approved" | "rejected";
                                    /**
                                     * @description When it was asked for
                                     * @example 1764063000000
                                     */
                                    createdAt: number;
                                    decidedAt: number | null;
                                    rejectionReason: string | null;
                                    payment: {
                                        /**
                                         * @description The payment gateway
                                         * @constant
                                         */
                                        gateway: "paystack";
                                        /**
                                         * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                         * @example pay_offline
                                         */
                                        status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                        /**
                                         * @description What to tell the payer
                                         * @example Please complete authorization process on your mobile phone
                                         */
                                        displayText: string;
                                        /**
                                         * @description The number charged, 233…
                                         * @example 233551234987
                                         */
                                        phone: string;
                                        /**
                                         * @description Mobile Money network
                                         * @example MTN
                                         */
                                        network: "MTN" | "TELECEL" | "AT";
                                    } | null;
                                } | {
                                    /**
                                     * @description Owner of the wallet (profile id)
                                     * @example usr_ama
                                     */
                                    userProfileId: string;
                                    /**
                                     * @description Spendable, GHS
                                     * @example 482.6
                                     */
                                    availableBalance: number;
                                    /**
                                     * @description Reserved for pending orders, GHS
                                     * @example 5.4
                                     */
                                    heldBalance: number;
                                    /**
                                     * @description Available plus held, GHS
                                     * @example 488
                                     */
                                    totalBalance: number;
                                    /**
                                     * @description Always GHS
                                     * @constant
                                     */
                                    currency: "GHS";
                                    /**
                                     * @description Unix ms of the last balance change
                                     * @example 1764063000000
                                     */
                                    lastUpdated: number;
                                    alertThreshold: number | null;
                                } | {
                                    /**
                                     * @description Adjustment id
                                     * @example adj_01jd6x4m2k8q9r7t5v3w1y0z2a
                                     */
                                    _id: string;
                                    /**
                                     * @description Owner of the wallet (profile id)
                                     * @example usr_ama
                                     */
                                    userProfileId: string;
                                    /** @description The wallet adjusted */
                                    mode: "live" | "test";
                                    /** @description credit adds to available, debit takes from it */
                                    direction: "credit" | "debit";
                                    /**
                                     * @description GHS moved
                                     * @example 25
                                     */
                                    amount: number;
                                    /**
                                     * @description Why staff adjusted the wallet
                                     * @example Duplicate charge on order 7KQ2M9
                                     */
                                    reason: string;
                                    /**
                                     * @description Available after the adjustment, GHS
                                     * @example 507.6
                                     */
                                    availableBalance: number;
                                    /**
                                     * @description Held after the adjustment, GHS
                                     * @example 5.4
                                     */
                                    heldBalance: number;
                                    /**
                                     * @description Unix ms the adjustment was requested
                                     * @example 1764063000000
                                     */
                                    createdAt: number;
                                    /**
                                     * @description Unix ms the money moved
                                     * @example 1764063000000
                                     */
                                    appliedAt: number;
                                };
                                /** @description order.recipient.* events: the bulk recipient entry the event is about */
                                recipient?: {
                                    /**
                                     * @description Recipient phone, international format
                                     * @example 233244123457
                                     */
                                    beneficiaryMsisdn: string;
                                    /**
                                     * @description Package bought for this recipient
                                     * @example pkg_mtn_2gb
                                     */
                                    packageId: string;
                                    /**
                                     * @description Display label of the package
                                     * @example MTN 2GB (30 days)
                                     */
                                    packageLabel: string;
                                    /**
                                     * @description Charged for this recipient (latest attempt), GHS
                                     * @example 10.4
                                     */
                                    amount: number;
                                    /**
                                     * @description pending, processing, completed, failed (lower case)
                                     * @example completed
                                     */
                                    status: string;
                                    errorMessage: string | null;
                                    submittedAt: number | null;
                                    completedAt: number | null;
                                    reversedAt: number | null;
                                    reversalReason: string | null;
                                };
                            };
                            /** @description Its delivery to each of your endpoints, with every attempt */
                            deliveries: {
                                /**
                                 * @description The endpoint (we_…)
                                 * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                                 */
                                endpointId: string;
                                /** @description pending while attempts remain, succeeded after a 2xx, failed once the retry schedule is spent */
                                status: "pending" | "succeeded" | "failed";
                                /** @description Every attempt, oldest first */
                                attempts: {
                                    /**
                                     * @description When the attempt was made
                                     * @example 1764063003400
                                     */
                                    attemptedAt: number;
                                    statusCode: number | null;
                                    error: string | null;
                                    /**
                                     * @description How long the attempt took
                                     * @example 84
                                     */
                                    durationMs: number;
                                }[];
                                lastAttemptAt: number | null;
                                lastStatusCode: number | null;
                                nextAttemptAt: number | null;
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `EVENT_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description event id (evt_…)
                 * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                 */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: queued; the payload is in `data` */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description The event
                             * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                             */
                            eventId: string;
                            /**
                             * @description How many endpoints it was queued to
                             * @example 1
                             */
                            endpoints: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `EVENT_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `INVALID_REQUEST`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Your endpoints in the key's mode, newest first (no secrets) */
                            endpoints: {
                                /**
                                 * @description Endpoint id (we_…)
                                 * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                                 */
                                _id: string;
                                /**
                                 * @description Where events are POSTed
                                 * @example https://shop.example.com.gh/hooks/partner-api
                                 */
                                url: string;
                                /**
                                 * @description Event types it receives; ["*"]: every type
                                 * @example [
                                 *       "order.completed",
                                 *       "order.failed"
                                 *     ]
                                 */
                                events: string[];
                                description: string | null;
                                /** @description enabled: receives events; disabled: deliveries stopped */
                                status: "enabled" | "disabled";
                                disabledReason: string | null;
                                /**
                                 * @description When it was created
                                 * @example 1764063000000
                                 */
                                createdAt: number;
                            }[];
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://shop.example.com.gh/hooks/partner-api",
                 *       "events": [
                 *         "order.completed",
                 *         "order.failed"
                 *       ],
                 *       "description": "Order outcomes for the shop"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Where events are POSTed: https:// (http:// in test mode and outside production); private addresses are refused in production
                     * @example https://shop.example.com.gh/hooks/partner-api
                     */
                    url: string;
                    /**
                     * @description Event types to receive, or ["*"] for every type
                     * @example [
                     *       "order.completed",
                     *       "order.failed"
                     *     ]
                     */
                    events: string[];
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Created: the new record is in `data` */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Endpoint id (we_…)
                             * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                             */
                            _id: string;
                            /**
                             * @description Where events are POSTed
                             * @example https://shop.example.com.gh/hooks/partner-api
                             */
                            url: string;
                            /**
                             * @description Event types it receives; ["*"]: every type
                             * @example [
                             *       "order.completed",
                             *       "order.failed"
                             *     ]
                             */
                            events: string[];
                            description: string | null;
                            /** @description enabled: receives events; disabled: deliveries stopped */
                            status: "enabled" | "disabled";
                            disabledReason: string | null;
                            /**
                             * @description When it was created
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description whsec_<base64 of 32 random bytes>: shown once, keep it to verify signatures
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3zE0AJcQp3k=
                             */
                            secret: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `WEBHOOK_ENDPOINT_INVALID`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `WEBHOOK_ENDPOINT_INVALID`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description webhook endpoint id (we_…)
                 * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                 */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Endpoint id (we_…)
                             * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                             */
                            _id: string;
                            /**
                             * @description Where events are POSTed
                             * @example https://shop.example.com.gh/hooks/partner-api
                             */
                            url: string;
                            /**
                             * @description Event types it receives; ["*"]: every type
                             * @example [
                             *       "order.completed",
                             *       "order.failed"
                             *     ]
                             */
                            events: string[];
                            description: string | null;
                            /** @description enabled: receives events; disabled: deliveries stopped */
                            status: "enabled" | "disabled";
                            disabledReason: string | null;
                            /**
                             * @description When it was created
                             * @example 1764063000000
                             */
                            createdAt: number;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `WEBHOOK_ENDPOINT_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.
                 * @example 5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30
                 */
                "idempotency-key"?: string;
            };
            path: {
                /**
                 * @description webhook endpoint id (we_…)
                 * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                 */
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the payload is in `data` */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * @description Endpoint id (we_…)
                             * @example we_01kasqe2c4f6h8k0m2p4r6t8v0
                             */
                            _id: string;
                            /**
                             * @description Where events are POSTed
                             * @example https://shop.example.com.gh/hooks/partner-api
                             */
                            url: string;
                            /**
                             * @description Event types it receives; ["*"]: every type
                             * @example [
                             *       "order.completed",
                             *       "order.failed"
                             *     ]
                             */
                            events: string[];
                            description: string | null;
                            /** @description enabled: receives events; disabled: deliveries stopped */
                            status: "enabled" | "disabled";
                            disabledReason: string | null;
                            /**
                             * @description When it was created
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description whsec_<base64 of 32 random bytes>: shown once, keep it to verify signatures
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3zE0AJcQp3k=
                             */
                            secret: string;
                        };
                    };
                };
            };
            /** @description Invalid request: `INVALID_REQUEST`, `INVALID_JSON`, `IDEMPOTENCY_KEY_INVALID` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No valid API key: `UNAUTHORIZED` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not allowed: `PROFILE_SUSPENDED` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found: `WEBHOOK_ENDPOINT_NOT_FOUND` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Conflict: `INVALID_REQUEST`, `IDEMPOTENCY_KEY_IN_USE` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body too large: `PAYLOAD_TOO_LARGE` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A path segment is too long: `INVALID_REQUEST` */
            414: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Request body is not JSON: `UNSUPPORTED_MEDIA_TYPE` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Unprocessable: `IDEMPOTENCY_KEY_REUSED` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests: `RATE_LIMITED` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A fault of ours: `INTERNAL_ERROR` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    webhook_order_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.completed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_order_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.failed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_order_recipient_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.recipient.completed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                        /** @description The bulk recipient entry the event is about */
                        recipient: {
                            /**
                             * @description Recipient phone, international format
                             * @example 233244123457
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Package bought for this recipient
                             * @example pkg_mtn_2gb
                             */
                            packageId: string;
                            /**
                             * @description Display label of the package
                             * @example MTN 2GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description Charged for this recipient (latest attempt), GHS
                             * @example 10.4
                             */
                            amount: number;
                            /**
                             * @description pending, processing, completed, failed (lower case)
                             * @example completed
                             */
                            status: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            reversedAt: number | null;
                            reversalReason: string | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_order_recipient_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.recipient.failed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                        /** @description The bulk recipient entry the event is about */
                        recipient: {
                            /**
                             * @description Recipient phone, international format
                             * @example 233244123457
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Package bought for this recipient
                             * @example pkg_mtn_2gb
                             */
                            packageId: string;
                            /**
                             * @description Display label of the package
                             * @example MTN 2GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description Charged for this recipient (latest attempt), GHS
                             * @example 10.4
                             */
                            amount: number;
                            /**
                             * @description pending, processing, completed, failed (lower case)
                             * @example completed
                             */
                            status: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            reversedAt: number | null;
                            reversalReason: string | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_order_recipient_reversed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.recipient.reversed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                        /** @description The bulk recipient entry the event is about */
                        recipient: {
                            /**
                             * @description Recipient phone, international format
                             * @example 233244123457
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Package bought for this recipient
                             * @example pkg_mtn_2gb
                             */
                            packageId: string;
                            /**
                             * @description Display label of the package
                             * @example MTN 2GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description Charged for this recipient (latest attempt), GHS
                             * @example 10.4
                             */
                            amount: number;
                            /**
                             * @description pending, processing, completed, failed (lower case)
                             * @example completed
                             */
                            status: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            reversedAt: number | null;
                            reversalReason: string | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_order_reversed: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "order.reversed";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The order as GET /api/v1/orders/{orderId} returns it */
                        object: {
                            /**
                             * @description Order record id
                             * @example ord_01kasq4d7mz8y3b2x6vw9n5r1t
                             */
                            _id: string;
                            /**
                             * @description Record creation timestamp (fractional allowed)
                             * @example 1764063000000
                             */
                            _creationTime: number;
                            /**
                             * @description When the order was taken
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Last change (a failed order: when it failed)
                             * @example 1764063003150
                             */
                            updatedAt: number;
                            /**
                             * @description User-friendly alphanumeric reference, to read out over the phone
                             * @example DB7KQ2M9XH
                             */
                            shortReference: string;
                            /**
                             * @description Recipient phone, international format; empty for a bulk order (see bulkRecipients)
                             * @example 233244123456
                             */
                            beneficiaryMsisdn: string;
                            /**
                             * @description Operator id
                             * @example op_mtn
                             */
                            operatorId: string;
                            /**
                             * @description Operator name
                             * @example MTN Ghana
                             */
                            operatorName: string;
                            /**
                             * @description Product id
                             * @example prd_mtn_data
                             */
                            productId: string;
                            /**
                             * @description Product name
                             * @example MTN Data
                             */
                            productName: string;
                            /**
                             * @description Package id
                             * @example pkg_mtn_1gb
                             */
                            packageId: string;
                            /**
                             * @description Display label
                             * @example MTN 1GB (30 days)
                             */
                            packageLabel: string;
                            /**
                             * @description GHS charged to the wallet (a bulk order: the total held at creation)
                             * @example 5.4
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)
                             * @example completed
                             */
                            state: string;
                            /**
                             * @description data, airtime, voice, afa, registration, top_up, result_checker
                             * @example data
                             */
                            orderType: string;
                            errorMessage: string | null;
                            submittedAt: number | null;
                            completedAt: number | null;
                            isBulkOrder: boolean | null;
                            bulkRecipients: {
                                /**
                                 * @description Recipient phone, international format
                                 * @example 233244123457
                                 */
                                beneficiaryMsisdn: string;
                                /**
                                 * @description Package bought for this recipient
                                 * @example pkg_mtn_2gb
                                 */
                                packageId: string;
                                /**
                                 * @description Display label of the package
                                 * @example MTN 2GB (30 days)
                                 */
                                packageLabel: string;
                                /**
                                 * @description Charged for this recipient (latest attempt), GHS
                                 * @example 10.4
                                 */
                                amount: number;
                                /**
                                 * @description pending, processing, completed, failed (lower case)
                                 * @example completed
                                 */
                                status: string;
                                errorMessage: string | null;
                                submittedAt: number | null;
                                completedAt: number | null;
                                reversedAt: number | null;
                                reversalReason: string | null;
                            }[] | null;
                            bulkCompletedCount: number | null;
                            bulkFailedCount: number | null;
                            walletBalanceBefore: number | null;
                            walletBalanceAfter: number | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_topup_approved: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "topup.approved";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The top-up as GET /api/v1/top-ups lists it */
                        object: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_topup_rejected: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "topup.rejected";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The top-up as GET /api/v1/top-ups lists it */
                        object: {
                            /**
                             * @description Top-up id
                             * @example tup_01kasqc4f6h8k0m2p4r6t8v0x2
                             */
                            _id: string;
                            /**
                             * @description GHS asked for
                             * @example 500
                             */
                            amount: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /** @description How you paid: mobile money or bank transfer */
                            method: "momo" | "bank";
                            /**
                             * @description The payer's transaction reference
                             * @example MOMO-2611240931
                             */
                            reference: string;
                            note: string | null;
                            /** @description pending until staff decide; approved (wallet credited once) or rejected */
                            status: "pending" | "approved" | "rejected";
                            /**
                             * @description When it was asked for
                             * @example 1764063000000
                             */
                            createdAt: number;
                            decidedAt: number | null;
                            rejectionReason: string | null;
                            payment: {
                                /**
                                 * @description The payment gateway
                                 * @constant
                                 */
                                gateway: "paystack";
                                /**
                                 * @description pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed
                                 * @example pay_offline
                                 */
                                status: "pay_offline" | "send_otp" | "pending" | "success" | "failed";
                                /**
                                 * @description What to tell the payer
                                 * @example Please complete authorization process on your mobile phone
                                 */
                                displayText: string;
                                /**
                                 * @description The number charged, 233…
                                 * @example 233551234987
                                 */
                                phone: string;
                                /**
                                 * @description Mobile Money network
                                 * @example MTN
                                 */
                                network: "MTN" | "TELECEL" | "AT";
                            } | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_wallet_balance_low: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "wallet.balance_low";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The wallet as GET /api/v1/wallet-balance returns it */
                        object: {
                            /**
                             * @description Owner of the wallet (profile id)
                             * @example usr_ama
                             */
                            userProfileId: string;
                            /**
                             * @description Spendable, GHS
                             * @example 482.6
                             */
                            availableBalance: number;
                            /**
                             * @description Reserved for pending orders, GHS
                             * @example 5.4
                             */
                            heldBalance: number;
                            /**
                             * @description Available plus held, GHS
                             * @example 488
                             */
                            totalBalance: number;
                            /**
                             * @description Always GHS
                             * @constant
                             */
                            currency: "GHS";
                            /**
                             * @description Unix ms of the last balance change
                             * @example 1764063000000
                             */
                            lastUpdated: number;
                            alertThreshold: number | null;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_wallet_adjusted: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (evt_…), the same on every retry: use it to drop duplicates */
                "webhook-id": string;
                /** @description Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes) */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description evt_…; also the webhook-id of every delivery of it
                     * @example evt_01kasqd8j0m2p4r6t8w0y2a4c6
                     */
                    _id: string;
                    /**
                     * @description order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted
                     * @example order.completed
                     * @constant
                     */
                    type: "wallet.adjusted";
                    /**
                     * @description When the change happened
                     * @example 1764063003150
                     */
                    createdAt: number;
                    /** @description The mode of the record (and of the keys that see it) */
                    mode: "live" | "test";
                    /** @description The record as its GET endpoint returns it (a recipient event adds its recipient entry) */
                    data: {
                        /** @description The adjustment, with the balances after it */
                        object: {
                            /**
                             * @description Adjustment id
                             * @example adj_01jd6x4m2k8q9r7t5v3w1y0z2a
                             */
                            _id: string;
                            /**
                             * @description Owner of the wallet (profile id)
                             * @example usr_ama
                             */
                            userProfileId: string;
                            /** @description The wallet adjusted */
                            mode: "live" | "test";
                            /** @description credit adds to available, debit takes from it */
                            direction: "credit" | "debit";
                            /**
                             * @description GHS moved
                             * @example 25
                             */
                            amount: number;
                            /**
                             * @description Why staff adjusted the wallet
                             * @example Duplicate charge on order 7KQ2M9
                             */
                            reason: string;
                            /**
                             * @description Available after the adjustment, GHS
                             * @example 507.6
                             */
                            availableBalance: number;
                            /**
                             * @description Held after the adjustment, GHS
                             * @example 5.4
                             */
                            heldBalance: number;
                            /**
                             * @description Unix ms the adjustment was requested
                             * @example 1764063000000
                             */
                            createdAt: number;
                            /**
                             * @description Unix ms the money moved
                             * @example 1764063000000
                             */
                            appliedAt: number;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the endpoint is disabled at once */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received: delivery succeeded */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
